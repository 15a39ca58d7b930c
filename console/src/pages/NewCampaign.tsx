import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { FieldMessage, Problem, StatusButton } from '../components';
import { fieldErrors } from '../errors';
import { graphql } from '../gql';
import { href, navigate } from '../router';
import { AudienceSummary, everyoneWarning } from './Audience';
import { SCHEDULE_FIELDS, type Schedule, ScheduleFields, scheduleInput, type Tier, tiersOf } from './CampaignSettings';

const OPTIONS = graphql(`
  query NewCampaignOptions {
    aiAgents {
      id
      name
    }
    phoneNumbers {
      id
      phoneNumber
      label
    }
    webhooks {
      id
      name
      status
    }
    contacts(status: "active", first: 1) {
      totalCount
    }
  }
`);

const CREATE = graphql(`
  mutation CreateCampaign($input: CreateCampaignInput!) {
    createCampaign(input: $input) {
      id
    }
  }
`);

const CREATED = graphql(`
  query CreatedCampaign($id: ID!) {
    campaign(id: $id) {
      id
      name
      status
      contactsListTags
      contactsListCategories
      contactsListSource
      audience(limit: 10) {
        ...AudienceFields
      }
    }
  }
`);

const ACTIVATE = graphql(`
  mutation ActivateNewCampaign($id: ID!) {
    updateCampaign(id: $id, input: { status: "active" }) {
      id
      status
    }
  }
`);

/** The form's steps, and the API fields each step's inputs write (an error opens its step). */
const STEPS = [
  { title: 'Name and agent', fields: ['name', 'notes', 'aiAgentId'] },
  { title: 'Numbers', fields: ['outboundPhoneNumberId', 'inboundPhoneNumberId', 'allowNonLocalCalls', 'maxConcurrentCalls'] },
  { title: 'Contacts', fields: ['contactsListTags', 'contactsListCategories', 'contactsListSource'] },
  { title: 'Calling window and retries', fields: SCHEDULE_FIELDS },
  { title: 'Flow after each call', fields: ['webhookId'] },
] as const;

/** The contact filters: the input's key (GraphQL's errors name it too), the label. */
const FILTERS = [
  { key: 'contactsListTags', text: 'Tags' },
  { key: 'contactsListCategories', text: 'Categories' },
  { key: 'contactsListSource', text: 'Sources' },
] as const;

/**
 * The last step, once the draft is created: who it will call (the API's audience preview), then
 * activate it (asking first when it selects every contact) or open it as a draft.
 */
function Review({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: CREATED, variables: { id } });
  const [activated, activate] = useMutation(ACTIVATE);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const campaign = data?.campaign;
  return (
    <section className="card" aria-labelledby="review">
      <h2 id="review" ref={heading} tabIndex={-1}>
        Step {STEPS.length + 1} of {STEPS.length + 1}: Who it will call
      </h2>
      <Problem error={error ?? activated.error} />
      {campaign ? (
        <>
          <p>{campaign.name} is created as a draft: it calls nobody until it is activated.</p>
          <AudienceSummary audience={campaign.audience} selection={campaign} />
          <div className="actions">
            <StatusButton
              text="Activate"
              busy={activated.fetching}
              confirm={everyoneWarning(campaign, campaign.audience)}
              onGo={() => void activate({ id }).then((res) => res.error || navigate('campaigns', id))}
            />
            <a href={href('campaigns', id)}>Open the campaign (draft)</a>
          </div>
        </>
      ) : (
        !error && <p aria-busy="true">Counting…</p>
      )}
    </section>
  );
}

/** A new campaign's calling window: weekdays 9 to 5 in the browser's time zone, two tiers of retries. */
const DEFAULT_SCHEDULE: Schedule = {
  callTimeOfDayFrom: '09:00:00',
  callTimeOfDayTo: '17:00:00',
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  daysOfWeek: [1, 2, 3, 4, 5],
  numberOfCallAttempts: [2],
  retryDelay: [30],
  retryDelayUnit: ['MINUTES'],
};

/** `vip, gold` -> ['vip', 'gold']. */
const listOf = (value: FormDataEntryValue | null) =>
  String(value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * A new campaign, a step at a time (agent, numbers, contacts, window and retries, flow), created
 * as a draft: its page then activates it. Every step stays in one form, so Back keeps what was typed.
 */
export function NewCampaignPage() {
  const [{ data, error }] = useQuery({ query: OPTIONS });
  const [result, create] = useMutation(CREATE);
  const [step, setStep] = useState(0);
  const [tiers, setTiers] = useState<Tier[]>(() => tiersOf(DEFAULT_SCHEDULE));
  const [everyone, setEveryone] = useState(true);
  const errors = fieldErrors(result.error);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  // Each step's heading takes the focus when the step changes (not when the page opens).
  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [step]);
  const [createdId, setCreatedId] = useState<string | null>(null);
  const last = step === STEPS.length - 1;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!last) {
      setStep(step + 1);
      return;
    }
    const form = new FormData(event.currentTarget);
    const id = (name: string) => String(form.get(name) ?? '') || null;
    const res = await create({
      input: {
        name: String(form.get('name')),
        notes: String(form.get('notes')),
        aiAgentId: id('aiAgentId'),
        outboundPhoneNumberId: id('outboundPhoneNumberId'),
        inboundPhoneNumberId: id('inboundPhoneNumberId'),
        allowNonLocalCalls: form.get('allowNonLocalCalls') === 'on',
        maxConcurrentCalls: Number(form.get('maxConcurrentCalls')),
        ...Object.fromEntries(FILTERS.map((f) => [f.key, listOf(form.get(f.key))])),
        ...scheduleInput(form, tiers),
        webhookId: id('webhookId'),
      },
    });
    if (res.data) {
      setCreatedId(res.data.createCampaign.id);
      return;
    }
    const wrong = fieldErrors(res.error).map((e) => STEPS.findIndex((s) => (s.fields as readonly string[]).some((f) => e.field === f || e.field.startsWith(`${f}[`) || e.field.startsWith(`${f}.`))));
    const first = Math.min(...wrong.filter((i) => i >= 0));
    if (Number.isFinite(first)) setStep(first);
  }

  const shown = (i: number) => ({ hidden: step !== i });
  return (
    <>
      <p>
        <a href={href('campaigns')}>← Campaigns</a>
      </p>
      <h1>New campaign</h1>
      <ol className="steps-nav" aria-label="Steps">
        {[...STEPS.map((s) => s.title), 'Who it will call'].map((title, i) => (
          <li key={title} aria-current={(createdId ? STEPS.length : step) === i ? 'step' : undefined}>
            {i + 1}. {title}
          </li>
        ))}
      </ol>
      <Problem error={error} />
      {createdId ? (
        <Review id={createdId} />
      ) : (
        <form className="card" onSubmit={submit} aria-labelledby="step-title" noValidate>
          <h2 id="step-title" ref={heading} tabIndex={-1}>
            Step {step + 1} of {STEPS.length + 1}: {STEPS[step].title}
          </h2>
          <div {...shown(0)}>
            <label>
              Name <input name="name" required />
            </label>
            <FieldMessage errors={errors} field="name" />
            <label>
              Notes <input name="notes" />
            </label>
            <label>
              Agent
              <select name="aiAgentId">
                <option value="">none yet</option>
                {data?.aiAgents.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </label>
            <FieldMessage errors={errors} field="aiAgentId" />
            <p className="hint">
              No agent yet? <a href={href('agents', 'new')}>Create one</a> (this form is lost).
            </p>
          </div>
          <div {...shown(1)}>
            <label>
              Calls from
              <select name="outboundPhoneNumberId">
                <option value="">none yet</option>
                {data?.phoneNumbers.map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.phoneNumber} {n.label}
                  </option>
                ))}
              </select>
            </label>
            <FieldMessage errors={errors} field="outboundPhoneNumberId" />
            <label>
              Calls back arrive on
              <select name="inboundPhoneNumberId">
                <option value="">none</option>
                {data?.phoneNumbers.map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.phoneNumber} {n.label}
                  </option>
                ))}
              </select>
            </label>
            <label className="inline">
              <input type="checkbox" name="allowNonLocalCalls" /> Call contacts whose country code differs from the calling number
            </label>
            <label>
              Most calls at once <input name="maxConcurrentCalls" inputMode="numeric" defaultValue="10" />
            </label>
            <FieldMessage errors={errors} field="maxConcurrentCalls" />
          </div>
          <div {...shown(2)} onChange={(e) => setEveryone(FILTERS.every((f) => !listOf(new FormData(e.currentTarget.closest('form')!).get(f.key)).length))}>
            <p className="hint">Contacts matching every filter given (each a list separated by commas) are called, plus those added to the campaign itself.</p>
            {FILTERS.map((f) => (
              <div key={f.key} className="field">
                <label>
                  {f.text} <input name={f.key} />
                </label>
                <FieldMessage errors={errors} field={f.key} />
              </div>
            ))}
            {everyone && (
              <p className="notice" role="status">
                No filter: the campaign selects every contact of the company ({data?.contacts.totalCount ?? '…'} active). The last step shows who it will call.
              </p>
            )}
          </div>
          <div {...shown(3)}>
            <ScheduleFields initial={DEFAULT_SCHEDULE} tiers={tiers} setTiers={setTiers} errors={errors} />
          </div>
          <div {...shown(4)}>
            <label>
              Flow run after each call
              <select name="webhookId">
                <option value="">none</option>
                {data?.webhooks.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name} ({w.status.toLowerCase()})
                  </option>
                ))}
              </select>
            </label>
            <FieldMessage errors={errors} field="webhookId" />
            <p className="hint">The campaign is created as a draft; the next step shows who it will call, and activates it.</p>
          </div>
          <div className="actions">
            {step > 0 && (
              <button type="button" className="secondary" onClick={() => setStep(step - 1)}>
                Back
              </button>
            )}
            <button type="submit" disabled={result.fetching}>
              {last ? 'Create the campaign' : 'Next'}
            </button>
          </div>
          {errors.length === 0 && <Problem error={result.error} />}
        </form>
      )}
    </>
  );
}
