import { z } from 'zod';
import type { WebhookFlow, WebhookStep } from '../../entities';
import { FLOW_DIRECTIONS, FLOW_EVENTS, FLOW_STATUSES, isSecretVariable, type PredefinedVariable, SECRET_MASK } from '../../entities/webhook-flow.entity';
import { WEBHOOK_METHODS } from '../../entities/webhook-step.entity';
import { defineContract, described as d, field, namedObject, type ViewOf, viewOf } from '../shared/contract';
import { RETRY_UNITS } from '../campaigns/campaign.input';
import { intBetween, jsonObject, requiredText, rule, text, uuid, workspace } from '../shared/common.input';
import { executionContract, type ExecutionView } from './flow-execution.contract';

/**
 * One HTTP request of a flow, run in `stepNumber` order after `dependsOnStep` succeeded, as
 * every surface shows it: REST (interface 2.5, inside its flow), /openapi.json and the
 * GraphQL `WebhookStep` type.
 */
export const stepContract = defineContract({
  name: 'WebhookStep',
  view: z.object({
    id: d(field.id(), 'Unique id (UUID).'),
    stepNumber: d(z.int(), 'Position of the step in the flow.'),
    webhookUrl: d(z.string(), 'May hold {{placeholders}}, filled at run time.'),
    webhookMethod: d(z.enum(WEBHOOK_METHODS), 'HTTP method.'),
    webhookTimeout: d(z.int(), 'Seconds per request.'),
    retryLimit: d(z.int(), 'Retries of the step within one attempt, 0 to 10.'),
    timeout: d(z.int(), 'Seconds for the step overall.'),
    webhookUrlParams: d(z.record(z.string(), z.string()), 'Query parameters, key to value; may hold {{placeholders}}.'),
    webhookHeaders: d(z.record(z.string(), z.string()), 'Request headers, key to value; may hold {{placeholders}}.'),
    webhookBody: d(z.unknown(), 'Request body, any JSON; may hold {{placeholders}}.'),
    dependsOnStep: d(z.int().nullable(), 'StepNumber of an earlier step that must succeed first; null for none.'),
    successCondition: d(z.unknown(), 'JSON Logic rule over {status, headers, body}; null means HTTP 2xx.'),
    createdAt: d(z.date(), 'When the record was created.'),
    updatedAt: d(z.date(), 'When the record last changed.'),
    deletedAt: d(z.date().nullable(), 'When the record was deleted; null while it exists.'),
  }),
  // Interface 2.5 lists the timestamps after the step's settings.
  rest: { after: { createdAt: 'timeout', updatedAt: 'createdAt', deletedAt: 'updatedAt' } },
  graphql: { omit: ['deletedAt'], as: { webhookBody: 'anyJson', successCondition: 'anyJson' } },
});

export type WebhookStepView = ViewOf<typeof stepContract>;

const variableName = () => d(z.string(), 'Variable name, as in `{{name}}`.');

const predefinedVariable = namedObject(
  z.strictObject({
    name: variableName(),
    value: d(z.string(), `The value; \`${SECRET_MASK}\` for a secret variable.`),
    secret: d(z.boolean(), 'Write-only: the value reads masked, steps still use it. True when flagged, or when the name looks like a credential (token, secret, password, api_key, auth...).'),
  }),
  'PredefinedVariable',
  'A fixed variable of a flow, used when neither the trigger nor a step gives it.',
);

/** `type`, `dataType` and `customValue` are left out when the flow was saved without them. */
const flowVariable = namedObject(
  z.strictObject({
    name: variableName(),
    location: d(z.string(), 'Path into the step response, e.g. body.id or headers.x-id.'),
    stepId: d(z.int(), 'The stepNumber of the step read.'),
    type: d(z.string().optional(), 'Kind of variable, free text.'),
    dataType: d(z.string().optional(), 'Type of the value, free text (e.g. string).'),
    customValue: d(z.string().optional(), 'Fallback value.'),
  }),
  'FlowVariable',
  "A value extracted from an earlier step's response.",
);

/** Stored with the keys the interface names; GraphQL names them in camelCase (`aiAgentId`). */
const eventFilters = namedObject(
  z.strictObject({
    workspace: d(z.string().optional(), 'Only records of this workspace.'),
    ai_agent_id: d(field.id().optional(), 'Only calls of this agent.'),
    campaign_id: d(field.id().optional(), 'Only records of this campaign.'),
  }),
  'EventFilters',
  "Which records' events trigger the flow; null matches all.",
);

/**
 * An outbound webhook flow, as every surface shows it: REST (interface 2.5, field for
 * field, with its steps and latest 20 executions inline; the signing secret only in the
 * answers that make one, `WebhookFlowWithSecret`), /openapi.json and the GraphQL
 * `WebhookFlow` type, whose `steps` and `executions` resolve on demand.
 */
export const flowContract = defineContract({
  name: 'WebhookFlow',
  view: z.object({
    id: d(field.id(), 'Unique id (UUID).'),
    createdBy: d(z.string().nullable(), 'Id of the user who created the flow; null when unknown.'),
    companyId: d(field.id().nullable(), 'Id of the company; null for the built-in templates.'),
    workspaceId: d(z.string(), 'Workspace slug the record belongs to (`default` unless given).'),
    name: d(z.string(), 'Name of the flow.'),
    logo: d(z.string(), 'Logo URL.'),
    retryDelay: d(z.int(), 'Delay before a failed attempt is retried, in `retryDelayUnit`.'),
    retryDelayUnit: d(z.enum(RETRY_UNITS), 'Unit of `retryDelay`.'),
    maxRetries: d(z.int(), 'Attempts after the first, 0 to 100.'),
    status: d(z.enum(FLOW_STATUSES), 'Status of the flow: stopped refuses triggers.'),
    isTemplate: d(z.boolean(), 'True for the built-in catalogue, readable by every company and changed by none.'),
    flowDirection: d(z.enum(FLOW_DIRECTIONS), 'Direction of the flow.'),
    flowMapping: d(field.json(), 'Free-form mapping data of the flow.'),
    tagName: d(z.string(), 'Tag of the flow, free text.'),
    categoryName: d(z.string(), 'Category of the flow, free text.'),
    predefinedVariables: d(z.array(predefinedVariable), 'Fixed variables, used when neither the trigger nor a step gives one.'),
    variables: d(z.array(flowVariable), 'Values to extract from earlier steps (`{{name}}` placeholders use them).'),
    events: d(z.array(z.enum(FLOW_EVENTS)), 'Events that trigger the flow (docs/flows.md, "Event subscriptions").'),
    eventFilters: d(eventFilters, "Which records' events trigger the flow."),
    secret: d(z.string().nullable(), 'Signing secret (whsec_...): only in the answer to createWebhook.'),
    createdAt: d(z.date(), 'When the record was created.'),
    updatedAt: d(z.date(), 'When the record last changed.'),
    deletedAt: d(z.date().nullable(), 'When the record was deleted; null while it exists.'),
    executions: d(z.array(executionContract.view), 'The latest 20 executions, newest first.'),
    steps: d(z.array(stepContract.view), 'In stepNumber order.'),
  }),
  // Interface 2.5's order; it names `predefinedVariables` in camelCase. The secret has a shape of its own.
  rest: {
    omit: ['secret'],
    rename: { predefinedVariables: 'predefinedVariables' },
    after: { createdAt: 'status', updatedAt: 'createdAt', executions: 'updatedAt', steps: 'executions', deletedAt: 'categoryName' },
  },
  // GraphQL types the creator as an id and the events as text; steps and executions are field resolvers there.
  graphql: { omit: ['companyId', 'deletedAt', 'executions', 'steps'], as: { createdBy: 'id', events: 'text' } },
});

export type WebhookFlowView = ViewOf<typeof flowContract>;

/** The view of a stored step. */
export const toStepView = (step: WebhookStep): WebhookStepView => viewOf(stepContract, step, { webhookBody: (s) => s.webhookBody ?? null, successCondition: (s) => s.successCondition ?? null });

/** A predefined variable as every read shows it: a secret one's value masked. */
const predefinedView = (v: PredefinedVariable) => {
  const secret = isSecretVariable(v);
  return { name: v.name, value: secret && v.value !== '' ? SECRET_MASK : v.value, secret };
};

/**
 * Predefined variables as an update stores them (before encryption): flagged secret when
 * they are, and a secret one sent back with the mask (as read) keeps the stored value of
 * that name, and stays secret: a kept value is never read back.
 */
export function storedPredefined(sent: { name: string; value: string; secret?: boolean | undefined }[], stored: PredefinedVariable[]): PredefinedVariable[] {
  return sent.map((v) => {
    const kept = v.value === SECRET_MASK ? stored.find((s) => s.name === v.name && isSecretVariable(s)) : undefined;
    const secret = isSecretVariable(v) || kept !== undefined;
    return { name: v.name, value: kept ? kept.value : v.value, ...(secret ? { secret } : {}) };
  });
}

/** The view of a flow (its steps loaded) with the views of its latest executions, and its secret in the answers that make one. */
export const toFlowView = ({ flow, executions, secret }: { flow: WebhookFlow; executions: ExecutionView[]; secret?: string }): WebhookFlowView =>
  viewOf(flowContract, flow, {
    secret: () => secret ?? null,
    predefinedVariables: (f) => f.predefinedVariables.map(predefinedView),
    executions: () => executions,
    steps: (f) => [...f.steps.getItems()].sort((a, b) => a.stepNumber - b.stepNumber).map(toStepView),
  });

const stringMap = () => z.record(z.string().max(200), z.string().max(10_000));

/** An http(s) URL; `{{placeholders}}` are allowed anywhere and filled at run time. */
const webhookUrl = () =>
  z
    .string()
    .max(4000, 'Must be at most 4000 characters')
    .refine((u) => /^https?:\/\/\S+$/i.test(u) || /^\{\{[^}]+\}\}\S*$/.test(u), 'Must be an http or https URL');

/**
 * One step as create and update write it, in the documented snake_case; GraphQL's
 * `WebhookStepInput` names its fields in camelCase, as the step entity does.
 */
export const stepWrite = namedObject(
  z.strictObject({
    step_number: d(intBetween(1, 1000), 'Position of the step in the flow.'),
    webhook_url: d(webhookUrl(), 'http(s) URL; {{placeholders}} allowed.'),
    webhook_method: d(
      z
        .string()
        .transform((m) => m.toUpperCase())
        .pipe(z.enum(WEBHOOK_METHODS, { error: rule(`Must be one of ${WEBHOOK_METHODS.join(', ')}`) }))
        .optional(),
      'GET, POST, PUT, DELETE, PATCH, OPTIONS or HEAD.',
    ),
    webhook_timeout: d(intBetween(1, 300).optional(), 'Seconds per request, 1 to 300.'),
    retry_limit: d(intBetween(0, 10).optional(), 'Retries of the step within one attempt, 0 to 10.'),
    timeout: d(intBetween(1, 3600).optional(), 'Seconds for the step overall, 1 to 3600.'),
    webhook_url_params: d(stringMap().optional(), 'Query parameters, key to value; may hold {{placeholders}}.'),
    webhook_headers: d(stringMap().optional(), 'Request headers, key to value; may hold {{placeholders}}.'),
    webhook_body: d(z.unknown().optional(), 'Request body, any JSON; may hold {{placeholders}}.'),
    depends_on_step: d(intBetween(1, 1000).nullable().optional(), 'StepNumber of an earlier step that must succeed first; null for none.'),
    success_condition: d(z.unknown().optional(), 'JSON Logic rule over {status, headers, body}; null means HTTP 2xx.'),
  }),
  'WebhookStepInput',
  'One HTTP request of a flow.',
);

/** A flow's steps, under either naming of their fields. */
export const stepList = <T extends z.ZodType>(step: T) => z.array(step).max(50, 'At most 50 steps');

const variableWrite = namedObject(
  z.strictObject({
    name: d(requiredText(100), 'Variable name, as in `{{name}}`.'),
    location: d(requiredText(500), 'Path into the step response, e.g. body.id or headers.x-id.'),
    stepId: d(intBetween(1, 1000), 'StepNumber of the step read.'),
    type: d(text(50).optional(), 'Kind of variable, free text.'),
    dataType: d(text(50).optional(), 'Type of the value, free text (e.g. string).'),
    customValue: d(text(10_000).optional(), 'Fallback value when the path leads nowhere.'),
  }),
  'FlowVariableInput',
  "A value to extract from an earlier step's response.",
);

const predefinedWrite = namedObject(
  z.strictObject({
    name: d(requiredText(100), 'Variable name, as in `{{name}}`.'),
    value: d(text(10_000), `The value; \`${SECRET_MASK}\` (as read) keeps a secret variable's stored value.`),
    secret: d(z.boolean().optional(), 'Write-only value, read back masked; names that look like credentials are secret anyway.'),
  }),
  'PredefinedVariableInput',
  'A fixed variable of a flow.',
);

/** The events a flow subscribes to (docs/flows.md, "Event subscriptions"), each once. */
const events = z
  .array(z.enum(FLOW_EVENTS, { error: rule(`Must be one of ${FLOW_EVENTS.join(', ')}`) }))
  .max(FLOW_EVENTS.length)
  .refine((list) => new Set(list).size === list.length, 'Each event at most once');

/** Which records' events trigger the flow, under the keys they are stored with; the service checks the ids are the caller's. */
export const eventFiltersWrite = namedObject(
  z.strictObject({
    workspace: d(requiredText(100).optional(), 'Only records of this workspace.'),
    ai_agent_id: d(uuid().optional(), 'An agent of your company.'),
    campaign_id: d(uuid().optional(), 'A campaign of your company.'),
  }),
  'EventFiltersInput',
  "Which records' events trigger the flow; a filter left out matches all of your company's.",
);
export type EventFiltersWrite = z.output<typeof eventFiltersWrite>;

/**
 * Fields flow create and update accept, in the documented snake_case (interface 2.5 names
 * the variables in camelCase): REST validates its body with them as sent, GraphQL's inputs
 * are derived from them (camelCase), and both name the same fields in validation errors.
 */
export const flowFields = {
  name: d(requiredText(200), 'Name of the flow.'),
  logo: d(text(2000), 'Logo URL.'),
  retry_delay: d(intBetween(0, 1_000_000), 'Delay before a failed attempt is retried, in `retryDelayUnit`.'),
  retry_delay_unit: d(z.enum(RETRY_UNITS, { error: rule(`Must be one of ${RETRY_UNITS.join(', ')}`) }), 'seconds, minutes, hours or days.'),
  max_retries: d(intBetween(0, 100), 'Attempts after the first, 0 to 100.'),
  status: d(z.enum(FLOW_STATUSES, { error: rule(`Must be one of ${FLOW_STATUSES.join(', ')}`) }), 'running, stopped, or another value the interface names.'),
  flow_direction: d(z.enum(FLOW_DIRECTIONS, { error: rule('Must be inbound or outbound') }), 'inbound or outbound.'),
  flow_mapping: d(jsonObject(), 'Free-form mapping data of the flow.'),
  tag_name: d(text(200), 'Tag of the flow, free text.'),
  category_name: d(text(200), 'Category of the flow, free text.'),
  predefinedVariables: d(z.array(predefinedWrite).max(200), 'Fixed variables, used when neither the trigger nor a step gives one.'),
  variables: d(z.array(variableWrite).max(200), 'Values to extract from earlier steps (`{{name}}` placeholders use them).'),
  steps: d(stepList(stepWrite), 'The HTTP requests of the flow.'),
  events: d(events, `Events that trigger the flow: ${FLOW_EVENTS.join(', ')}.`),
  event_filters: d(eventFiltersWrite, "Which records' events trigger the flow; left out: all of your company's."),
};

/** The workspace create and update accept beside the flow's fields. */
export const flowWorkspaceFields = { workspace: d(workspace(), 'Workspace slug (`default` when left out).') };

/** How GraphQL's flow inputs depart from the REST input: the workspace after the steps, the closed sets but the retry unit as text. */
export const flowInputOverride = { after: { workspace: 'steps' }, asText: ['status', 'flow_direction', 'events'] };
