import { type FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { FieldMessage, Problem } from '../components';
import { type FieldError, fieldErrors } from '../errors';
import { graphql } from '../gql';
import type { RetryDelayUnit } from '../gql/graphql';

const UPDATE = graphql(`
  mutation UpdateCampaignSchedule($id: ID!, $input: UpdateCampaignInput!) {
    updateCampaign(id: $id, input: $input) {
      id
      callTimeOfDayFrom
      callTimeOfDayTo
      daysOfWeek
      timeZone
      numberOfCallAttempts
      retryDelay
      retryDelayUnit
    }
  }
`);

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const UNITS: RetryDelayUnit[] = ['SECONDS', 'MINUTES', 'HOURS', 'DAYS'];

export interface Tier {
  attempts: string;
  delay: string;
  unit: RetryDelayUnit;
}

/** A campaign's calling window and retry tiers, as the API answers them. */
export interface Schedule {
  callTimeOfDayFrom: string;
  callTimeOfDayTo: string;
  timeZone: string;
  daysOfWeek: number[];
  numberOfCallAttempts: number[];
  retryDelay: number[];
  retryDelayUnit: RetryDelayUnit[];
}

export const tiersOf = (s: Schedule): Tier[] =>
  s.numberOfCallAttempts.map((attempts, i) => ({ attempts: String(attempts), delay: String(s.retryDelay[i] ?? 0), unit: s.retryDelayUnit[i] ?? 'MINUTES' }));

/** The window and the tiers of a submitted form, as createCampaign and updateCampaign take them. */
export const scheduleInput = (form: FormData, tiers: Tier[]) => ({
  callTimeOfDayFrom: String(form.get('from')),
  callTimeOfDayTo: String(form.get('to')),
  timeZone: String(form.get('timeZone')),
  daysOfWeek: form.getAll('day').map(Number),
  // Numbers as typed: the API says what is wrong with them, beside the field.
  numberOfCallAttempts: tiers.map((t) => Number(t.attempts)),
  retryDelay: tiers.map((t) => Number(t.delay)),
  retryDelayUnit: tiers.map((t) => t.unit),
});

/** The API fields the schedule's inputs write (their errors are shown here). */
export const SCHEDULE_FIELDS = ['callTimeOfDayFrom', 'callTimeOfDayTo', 'timeZone', 'daysOfWeek', 'numberOfCallAttempts', 'retryDelay', 'retryDelayUnit'];

/** The calling window's and the retry tiers' inputs, with the API's field errors beside each. */
export function ScheduleFields({ initial, tiers, setTiers, errors }: { initial: Schedule; tiers: Tier[]; setTiers(update: (all: Tier[]) => Tier[]): void; errors: FieldError[] }) {
  const setTier = (i: number, patch: Partial<Tier>) => setTiers((all) => all.map((t, j) => (j === i ? { ...t, ...patch } : t)));
  return (
    <>
      <div className="row">
        <label>
          From (HH:MM:SS) <input name="from" defaultValue={initial.callTimeOfDayFrom} />
        </label>
        <label>
          To (HH:MM:SS) <input name="to" defaultValue={initial.callTimeOfDayTo} />
        </label>
        <label>
          Time zone <input name="timeZone" defaultValue={initial.timeZone} />
        </label>
      </div>
      <FieldMessage errors={errors} field="callTimeOfDayFrom" />
      <FieldMessage errors={errors} field="callTimeOfDayTo" />
      <FieldMessage errors={errors} field="timeZone" />
      <fieldset className="choices">
        <legend>Days</legend>
        {DAYS.map((day, i) => (
          <label key={day} className="inline">
            <input type="checkbox" name="day" value={i + 1} defaultChecked={initial.daysOfWeek.includes(i + 1)} /> {day}
          </label>
        ))}
      </fieldset>
      <FieldMessage errors={errors} field="daysOfWeek" />
      <fieldset>
        <legend>Retry tiers (in order)</legend>
        {tiers.map((tier, i) => (
          <div className="row" key={i}>
            <label>
              Attempts <input inputMode="numeric" value={tier.attempts} onChange={(e) => setTier(i, { attempts: e.target.value })} />
            </label>
            <label>
              Wait <input inputMode="numeric" value={tier.delay} onChange={(e) => setTier(i, { delay: e.target.value })} />
            </label>
            <label>
              Unit
              <select value={tier.unit} onChange={(e) => setTier(i, { unit: e.target.value as RetryDelayUnit })}>
                {UNITS.map((u) => (
                  <option key={u} value={u}>
                    {u.toLowerCase()}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="link" onClick={() => setTiers((all) => all.filter((_, j) => j !== i))}>
              Remove tier {i + 1}
            </button>
            <FieldMessage errors={errors} field={`numberOfCallAttempts[${i}]`} />
            <FieldMessage errors={errors} field={`retryDelay[${i}]`} />
            <FieldMessage errors={errors} field={`retryDelayUnit[${i}]`} />
          </div>
        ))}
        <button type="button" className="link" onClick={() => setTiers((all) => [...all, { attempts: '1', delay: '30', unit: 'MINUTES' }])}>
          Add a tier
        </button>
      </fieldset>
      <FieldMessage errors={errors} field="numberOfCallAttempts" />
      <FieldMessage errors={errors} field="retryDelay" />
    </>
  );
}

/** The calling window and the retry tiers of a campaign, saved with updateCampaign. */
export function CampaignSettings({ campaign }: { campaign: Schedule & { id: string } }) {
  const [tiers, setTiers] = useState<Tier[]>(() => tiersOf(campaign));
  const [result, update] = useMutation(UPDATE);
  const [saved, setSaved] = useState(false);
  const errors = fieldErrors(result.error);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const res = await update({ id: campaign.id, input: scheduleInput(new FormData(event.currentTarget), tiers) });
    setSaved(!res.error);
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="schedule" noValidate>
      <h2 id="schedule">Calling window and retries</h2>
      <ScheduleFields initial={campaign} tiers={tiers} setTiers={setTiers} errors={errors} />
      <button type="submit" disabled={result.fetching}>
        Save
      </button>
      {errors.length === 0 && <Problem error={result.error} />}
      <p role="status">{saved ? 'Saved.' : ''}</p>
    </form>
  );
}
