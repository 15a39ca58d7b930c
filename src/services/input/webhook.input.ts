import { z } from 'zod';
import { FLOW_DIRECTIONS, FLOW_EVENTS, FLOW_STATUSES } from '../../entities/webhook-flow.entity';
import { WEBHOOK_METHODS } from '../../entities/webhook-step.entity';
import { intBetween, jsonObject, requiredText, rule, text, uuid, workspace } from './common';
import { RETRY_UNITS } from './campaign.input';

const stringMap = () => z.record(z.string().max(200), z.string().max(10_000));

/** An http(s) URL; `{{placeholders}}` are allowed anywhere and filled at run time. */
const webhookUrl = () =>
  z
    .string()
    .max(4000, 'Must be at most 4000 characters')
    .refine((u) => /^https?:\/\/\S+$/i.test(u) || /^\{\{[^}]+\}\}\S*$/.test(u), 'Must be an http or https URL');

const step = z.strictObject({
  step_number: intBetween(1, 1000),
  webhook_url: webhookUrl(),
  webhook_method: z
    .string()
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(WEBHOOK_METHODS, { error: rule(`Must be one of ${WEBHOOK_METHODS.join(', ')}`) }))
    .optional(),
  webhook_timeout: intBetween(1, 300).optional(),
  retry_limit: intBetween(0, 10).optional(),
  timeout: intBetween(1, 3600).optional(),
  webhook_url_params: stringMap().optional(),
  webhook_headers: stringMap().optional(),
  webhook_body: z.unknown().optional(),
  depends_on_step: intBetween(1, 1000).nullable().optional(),
  success_condition: z.unknown().optional(),
});
export type StepInput = z.output<typeof step>;

const variable = z.strictObject({
  name: requiredText(100),
  location: requiredText(500),
  stepId: intBetween(1, 1000),
  type: text(50).optional(),
  dataType: text(50).optional(),
  customValue: text(10_000).optional(),
});

const predefined = z.strictObject({ name: requiredText(100), value: text(10_000) });

/** The events a flow subscribes to (docs/flows.md, "Event subscriptions"), each once. */
const events = z
  .array(z.enum(FLOW_EVENTS, { error: rule(`Must be one of ${FLOW_EVENTS.join(', ')}`) }))
  .max(FLOW_EVENTS.length)
  .refine((list) => new Set(list).size === list.length, 'Each event at most once');

/** Which records' events trigger the flow; the service checks the ids are the caller's. */
const eventFilters = z.strictObject({
  workspace: requiredText(100).optional(),
  ai_agent_id: uuid().optional(),
  campaign_id: uuid().optional(),
});
export type EventFiltersInput = z.output<typeof eventFilters>;

const flowFields = {
  name: requiredText(200),
  logo: text(2000),
  retry_delay: intBetween(0, 1_000_000),
  retry_delay_unit: z.enum(RETRY_UNITS, { error: rule(`Must be one of ${RETRY_UNITS.join(', ')}`) }),
  max_retries: intBetween(0, 100),
  status: z.enum(FLOW_STATUSES, { error: rule(`Must be one of ${FLOW_STATUSES.join(', ')}`) }),
  flow_direction: z.enum(FLOW_DIRECTIONS, { error: rule('Must be inbound or outbound') }),
  flow_mapping: jsonObject(),
  tag_name: text(200),
  category_name: text(200),
  predefinedVariables: z.array(predefined).max(200),
  variables: z.array(variable).max(200),
  steps: z.array(step).max(50, 'At most 50 steps'),
  events,
  event_filters: eventFilters,
};

type FlowShape = { steps?: StepInput[]; variables?: { stepId: number }[] };

/**
 * Step numbers unique; a dependency names an earlier step; a variable names a step. Without
 * `steps` (a partial update) the service checks the variables against the stored steps.
 */
function checkSteps(flow: FlowShape, ctx: z.RefinementCtx): void {
  if (!flow.steps) return;
  const numbers = new Set<number>();
  flow.steps.forEach((s, i) => {
    if (numbers.has(s.step_number)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'step_number'], message: 'Step numbers must be unique' });
    numbers.add(s.step_number);
  });
  flow.steps.forEach((s, i) => {
    if (s.depends_on_step != null && (s.depends_on_step >= s.step_number || !numbers.has(s.depends_on_step))) {
      ctx.addIssue({ code: 'custom', path: ['steps', i, 'depends_on_step'], message: 'Must name an earlier step of this flow' });
    }
  });
  flow.variables?.forEach((v, i) => {
    if (!numbers.has(v.stepId)) ctx.addIssue({ code: 'custom', path: ['variables', i, 'stepId'], message: 'Must name a step of this flow' });
  });
}

export const createWebhookInput = z
  .strictObject(flowFields)
  .partial()
  .required({ name: true })
  .extend({ workspace: workspace(), steps: flowFields.steps.default([]) })
  .superRefine(checkSteps);

export const updateWebhookInput = z
  .strictObject({ ...flowFields, workspace: workspace().optional() })
  .partial()
  .superRefine(checkSteps);
export type UpdateWebhookInput = z.output<typeof updateWebhookInput>;

export const listWebhooksInput = z.object({ workspace: workspace() });

/** Copy an integration template into the caller's company (optional workspace and name). */
export const useTemplateInput = z.strictObject({
  workspace: workspace(),
  name: requiredText(200).optional(),
});
