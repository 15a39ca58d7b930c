import { FieldMessage } from '../components';
import type { FieldError } from '../errors';
import type { WebhookStepInput } from '../gql/graphql';

const METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

/** The events a flow can subscribe to (docs/flows.md, "Event subscriptions"). */
export const EVENTS = [
  ['call.started', 'a call is answered'],
  ['call.ended', 'a call ends'],
  ['call.analyzed', "a call's analysis is stored"],
  ['campaign.completed', 'a campaign completes'],
] as const;

/** A step as the editor holds it: its JSON parts as typed text, the rest of the step as stored. */
export interface StepDraft {
  input: WebhookStepInput;
  body: string;
  headers: string;
}

/** A stored step (or a new one) as the editor holds it. */
export const draftOf = (step: WebhookStepInput): StepDraft => ({
  input: step,
  body: step.webhookBody == null ? '' : JSON.stringify(step.webhookBody, null, 2),
  headers: JSON.stringify(step.webhookHeaders ?? {}, null, 2),
});

export const newStep = (stepNumber: number): StepDraft => draftOf({ stepNumber, webhookUrl: '', webhookMethod: 'POST', webhookBody: null, webhookHeaders: {} });

/** The steps as updateWebhook and createWebhook take them, or the field errors of JSON that does not parse. */
export function stepsInput(drafts: StepDraft[]): { steps: WebhookStepInput[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const steps = drafts.map((d, i) => {
    const parse = (text: string, field: string, empty: unknown) => {
      try {
        return text.trim() === '' ? empty : (JSON.parse(text) as unknown);
      } catch {
        errors.push({ field: `steps[${i}].${field}`, message: 'Must be JSON.' });
        return empty;
      }
    };
    return { ...d.input, stepNumber: i + 1, webhookBody: parse(d.body, 'webhookBody', null), webhookHeaders: parse(d.headers, 'webhookHeaders', {}) as Record<string, unknown> };
  });
  return { steps, errors };
}

/** The flow's HTTP requests, in order: each one's method, URL, headers, body, dependency, retries and timeout. */
export function StepsEditor({ drafts, setDrafts, errors }: { drafts: StepDraft[]; setDrafts(update: (all: StepDraft[]) => StepDraft[]): void; errors: FieldError[] }) {
  const set = (i: number, patch: Partial<StepDraft> | Partial<WebhookStepInput>) =>
    setDrafts((all) => all.map((d, j) => (j !== i ? d : 'body' in patch || 'headers' in patch ? { ...d, ...patch } : { ...d, input: { ...d.input, ...(patch as Partial<WebhookStepInput>) } })));
  return (
    <>
      {drafts.map((d, i) => (
        <fieldset key={i}>
          <legend>Step {i + 1}</legend>
          <div className="row">
            <label>
              Method
              <select value={d.input.webhookMethod ?? 'POST'} onChange={(e) => set(i, { webhookMethod: e.target.value })}>
                {METHODS.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </label>
            <label className="grow">
              URL <input type="url" value={d.input.webhookUrl} onChange={(e) => set(i, { webhookUrl: e.target.value })} placeholder="https://example.com/hook" />
            </label>
          </div>
          <FieldMessage errors={errors} field={`steps[${i}].webhookUrl`} />
          <FieldMessage errors={errors} field={`steps[${i}].webhookMethod`} />
          <label>
            Body (JSON; {'{{placeholders}}'} allowed; empty: none) <textarea rows={3} value={d.body} onChange={(e) => set(i, { body: e.target.value })} />
          </label>
          <FieldMessage errors={errors} field={`steps[${i}].webhookBody`} />
          <label>
            Headers (JSON) <textarea rows={2} value={d.headers} onChange={(e) => set(i, { headers: e.target.value })} />
          </label>
          <FieldMessage errors={errors} field={`steps[${i}].webhookHeaders`} />
          <div className="row">
            <label>
              After step (empty: none)
              <input inputMode="numeric" value={d.input.dependsOnStep ?? ''} onChange={(e) => set(i, { dependsOnStep: e.target.value === '' ? null : Number(e.target.value) })} />
            </label>
            <label>
              Retries (0-10) <input inputMode="numeric" value={d.input.retryLimit ?? ''} onChange={(e) => set(i, { retryLimit: e.target.value === '' ? undefined : Number(e.target.value) })} />
            </label>
            <label>
              Timeout (seconds) <input inputMode="numeric" value={d.input.timeout ?? ''} onChange={(e) => set(i, { timeout: e.target.value === '' ? undefined : Number(e.target.value) })} />
            </label>
          </div>
          <FieldMessage errors={errors} field={`steps[${i}].dependsOnStep`} />
          <FieldMessage errors={errors} field={`steps[${i}].retryLimit`} />
          <FieldMessage errors={errors} field={`steps[${i}].timeout`} />
          <button type="button" className="link" onClick={() => setDrafts((all) => all.filter((_, j) => j !== i))}>
            Remove step {i + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" className="link" onClick={() => setDrafts((all) => [...all, newStep(all.length + 1)])}>
        Add a step
      </button>
      <FieldMessage errors={errors} field="steps" />
    </>
  );
}

/** The events the flow runs on by itself (its subscriptions), as checkboxes named `event`. */
export function EventsFields({ events, errors }: { events: string[]; errors: FieldError[] }) {
  return (
    <fieldset className="choices">
      <legend>Run by itself when (event subscriptions)</legend>
      {EVENTS.map(([name, text]) => (
        <label key={name} className="inline">
          <input type="checkbox" name="event" value={name} defaultChecked={events.includes(name)} /> {text} (<code>{name}</code>)
        </label>
      ))}
      <FieldMessage errors={errors} field="events" />
    </fieldset>
  );
}
