import { z } from 'zod';
import type { WebhookFlow, WebhookStep } from '../../entities';
import { FLOW_DIRECTIONS, FLOW_EVENTS, FLOW_STATUSES, isSecretVariable, type PredefinedVariable, SECRET_MASK } from '../../entities/webhook-flow.entity';
import { WEBHOOK_METHODS } from '../../entities/webhook-step.entity';
import { declareFields, defineContract, field, namedObject, readOnly, readWrite, type ViewOf, viewOf } from '../shared/contract';
import { RETRY_UNITS } from '../campaigns/campaign.input';
import { intBetween, jsonObject, requiredText, rule, text, uuid, workspace } from '../shared/common.input';
import { executionContract, type ExecutionView } from './flow-execution.contract';

const stringMap = () => z.record(z.string().max(200), z.string().max(10_000));

/** An http(s) URL; `{{placeholders}}` are allowed anywhere and filled at run time. */
const webhookUrl = () =>
  z
    .string()
    .max(4000, 'Must be at most 4000 characters')
    .refine((u) => /^https?:\/\/\S+$/i.test(u) || /^\{\{[^}]+\}\}\S*$/.test(u), 'Must be an http or https URL');

/**
 * One HTTP request of a flow, run in `stepNumber` order after `dependsOnStep` succeeded, each
 * field declared once: as every surface shows it (REST, interface 2.5, inside its flow;
 * /openapi.json; the GraphQL `WebhookStep` type), and as create and update write it.
 */
const step = declareFields({
  id: readOnly('Unique id (UUID).', field.id()),
  stepNumber: readWrite('Position of the step in the flow.', z.int(), intBetween(1, 1000)),
  webhookUrl: readWrite('May hold {{placeholders}}, filled at run time.', z.string(), webhookUrl(), { writes: 'http(s) URL; {{placeholders}} allowed.' }),
  webhookMethod: readWrite(
    'HTTP method.',
    z.enum(WEBHOOK_METHODS),
    z
      .string()
      .transform((m) => m.toUpperCase())
      .pipe(z.enum(WEBHOOK_METHODS, { error: rule(`Must be one of ${WEBHOOK_METHODS.join(', ')}`) }))
      .optional(),
    { writes: 'GET, POST, PUT, DELETE, PATCH, OPTIONS or HEAD.' },
  ),
  webhookTimeout: readWrite('Seconds per request.', z.int(), intBetween(1, 300).optional(), { writes: 'Seconds per request, 1 to 300.' }),
  retryLimit: readWrite('Retries of the step within one attempt, 0 to 10.', z.int(), intBetween(0, 10).optional()),
  timeout: readWrite('Seconds for the step overall.', z.int(), intBetween(1, 3600).optional(), { writes: 'Seconds for the step overall, 1 to 3600.' }),
  webhookUrlParams: readWrite('Query parameters, key to value; may hold {{placeholders}}.', z.record(z.string(), z.string()), stringMap().optional()),
  webhookHeaders: readWrite('Request headers, key to value; may hold {{placeholders}}.', z.record(z.string(), z.string()), stringMap().optional()),
  webhookBody: readWrite('Request body, any JSON; may hold {{placeholders}}.', z.unknown(), z.unknown().optional()),
  dependsOnStep: readWrite('StepNumber of an earlier step that must succeed first; null for none.', z.int().nullable(), intBetween(1, 1000).nullable().optional()),
  successCondition: readWrite('JSON Logic rule over {status, headers, body}; null means HTTP 2xx.', z.unknown(), z.unknown().optional()),
  createdAt: readOnly('When the record was created.', z.date()),
  updatedAt: readOnly('When the record last changed.', z.date()),
  deletedAt: readOnly('When the record was deleted; null while it exists.', z.date().nullable()),
});

export const stepContract = defineContract({
  name: 'WebhookStep',
  view: step.view,
  // Interface 2.5 lists the timestamps after the step's settings.
  rest: { after: { createdAt: 'timeout', updatedAt: 'createdAt', deletedAt: 'updatedAt' } },
  graphql: { omit: ['deletedAt'], as: { webhookBody: 'anyJson', successCondition: 'anyJson' } },
});

export type WebhookStepView = ViewOf<typeof stepContract>;

const variableName = () => readWrite('Variable name, as in `{{name}}`.', z.string(), requiredText(100));

const predefined = declareFields({
  name: variableName(),
  value: readWrite(`The value; \`${SECRET_MASK}\` for a secret variable.`, z.string(), text(10_000), {
    writes: `The value; \`${SECRET_MASK}\` (as read) keeps a secret variable's stored value.`,
  }),
  secret: readWrite(
    'Write-only: the value reads masked, steps still use it. True when flagged, or when the name looks like a credential (token, secret, password, api_key, auth...).',
    z.boolean(),
    z.boolean().optional(),
    { writes: 'Write-only value, read back masked; names that look like credentials are secret anyway.' },
  ),
});
const predefinedVariable = namedObject(z.strictObject(predefined.view.shape), 'PredefinedVariable', 'A fixed variable of a flow, used when neither the trigger nor a step gives it.');
const predefinedWrite = namedObject(z.strictObject(predefined.write()), 'PredefinedVariableInput', 'A fixed variable of a flow.');

/** `type`, `dataType` and `customValue` are left out when the flow was saved without them; interface 2.5 names them in camelCase. */
const variable = declareFields({
  name: variableName(),
  location: readWrite('Path into the step response, e.g. body.id or headers.x-id.', z.string(), requiredText(500)),
  stepId: readWrite('The stepNumber of the step read.', z.int(), intBetween(1, 1000), { writtenAs: 'stepId' }),
  type: readWrite('Kind of variable, free text.', z.string().optional(), text(50).optional()),
  dataType: readWrite('Type of the value, free text (e.g. string).', z.string().optional(), text(50).optional(), { writtenAs: 'dataType' }),
  customValue: readWrite('Fallback value when the path leads nowhere.', z.string().optional(), text(10_000).optional(), { writtenAs: 'customValue' }),
});
const flowVariable = namedObject(z.strictObject(variable.view.shape), 'FlowVariable', "A value extracted from an earlier step's response.");
const variableWrite = namedObject(z.strictObject(variable.write()), 'FlowVariableInput', "A value to extract from an earlier step's response.");

/**
 * Which records' events trigger the flow, with the keys the interface names, as stored (GraphQL
 * names them in camelCase, `aiAgentId`); the service checks the ids written are the caller's.
 */
const filters = declareFields({
  workspace: readWrite('Only records of this workspace.', z.string().optional(), requiredText(100).optional()),
  ai_agent_id: readWrite('Only calls of this agent.', field.id().optional(), uuid().optional(), { writes: 'An agent of your company.' }),
  campaign_id: readWrite('Only records of this campaign.', field.id().optional(), uuid().optional(), { writes: 'A campaign of your company.' }),
});
const eventFilters = namedObject(z.strictObject(filters.view.shape), 'EventFilters', "Which records' events trigger the flow; null matches all.");
export const eventFiltersWrite = namedObject(z.strictObject(filters.write()), 'EventFiltersInput', "Which records' events trigger the flow; a filter left out matches all of your company's.");
export type EventFiltersWrite = z.output<typeof eventFiltersWrite>;

/** The events a flow subscribes to (docs/flows.md, "Event subscriptions"), each once. */
const events = z
  .array(z.enum(FLOW_EVENTS, { error: rule(`Must be one of ${FLOW_EVENTS.join(', ')}`) }))
  .max(FLOW_EVENTS.length)
  .refine((list) => new Set(list).size === list.length, 'Each event at most once');

/**
 * One step as create and update write it, in the documented snake_case; GraphQL's
 * `WebhookStepInput` names its fields in camelCase, as the step entity does.
 */
export const stepWrite = namedObject(z.strictObject(step.write()), 'WebhookStepInput', 'One HTTP request of a flow.');

/** A flow's steps, under either naming of their fields. */
export const stepList = <T extends z.ZodType>(step: T) => z.array(step).max(50, 'At most 50 steps');

/**
 * An outbound webhook flow, each field declared once: as every surface shows it (REST,
 * interface 2.5, field for field, with its steps and latest 20 executions inline; the signing
 * secret only in the answers that make one, `WebhookFlowWithSecret`; /openapi.json; the
 * GraphQL `WebhookFlow` type, whose `steps` and `executions` resolve on demand), and what
 * create and update accept, in the documented snake_case (interface 2.5 names the variables
 * in camelCase).
 */
const flow = declareFields(
  {
    id: readOnly('Unique id (UUID).', field.id()),
    createdBy: readOnly('Id of the user who created the flow; null when unknown.', z.string().nullable()),
    companyId: readOnly('Id of the company; null for the built-in templates.', field.id().nullable()),
    workspaceId: readWrite('Workspace slug the record belongs to (`default` unless given).', z.string(), workspace(), {
      writes: 'Workspace slug (`default` when left out).',
      writtenAs: 'workspace',
    }),
    name: readWrite('Name of the flow.', z.string(), requiredText(200)),
    logo: readWrite('Logo URL.', z.string(), text(2000)),
    retryDelay: readWrite('Delay before a failed attempt is retried, in `retryDelayUnit`.', z.int(), intBetween(0, 1_000_000)),
    retryDelayUnit: readWrite('Unit of `retryDelay`.', z.enum(RETRY_UNITS), z.enum(RETRY_UNITS, { error: rule(`Must be one of ${RETRY_UNITS.join(', ')}`) }), {
      writes: 'seconds, minutes, hours or days.',
    }),
    maxRetries: readWrite('Attempts after the first, 0 to 100.', z.int(), intBetween(0, 100)),
    status: readWrite('Status of the flow: stopped refuses triggers.', z.enum(FLOW_STATUSES), z.enum(FLOW_STATUSES, { error: rule(`Must be one of ${FLOW_STATUSES.join(', ')}`) }), {
      writes: 'running, stopped, or another value the interface names.',
    }),
    isTemplate: readOnly('True for the built-in catalogue, readable by every company and changed by none.', z.boolean()),
    flowDirection: readWrite('Direction of the flow.', z.enum(FLOW_DIRECTIONS), z.enum(FLOW_DIRECTIONS, { error: rule('Must be inbound or outbound') }), { writes: 'inbound or outbound.' }),
    flowMapping: readWrite('Free-form mapping data of the flow.', field.json(), jsonObject()),
    tagName: readWrite('Tag of the flow, free text.', z.string(), text(200)),
    categoryName: readWrite('Category of the flow, free text.', z.string(), text(200)),
    predefinedVariables: readWrite('Fixed variables, used when neither the trigger nor a step gives one.', z.array(predefinedVariable), z.array(predefinedWrite).max(200), {
      writtenAs: 'predefinedVariables',
    }),
    variables: readWrite('Values to extract from earlier steps (`{{name}}` placeholders use them).', z.array(flowVariable), z.array(variableWrite).max(200)),
    events: readWrite('Events that trigger the flow (docs/flows.md, "Event subscriptions").', z.array(z.enum(FLOW_EVENTS)), events, {
      writes: `Events that trigger the flow: ${FLOW_EVENTS.join(', ')}.`,
    }),
    eventFilters: readWrite("Which records' events trigger the flow.", eventFilters, eventFiltersWrite, { writes: "Which records' events trigger the flow; left out: all of your company's." }),
    secret: readOnly('Signing secret (whsec_...): only in the answer to createWebhook.', z.string().nullable()),
    createdAt: readOnly('When the record was created.', z.date()),
    updatedAt: readOnly('When the record last changed.', z.date()),
    deletedAt: readOnly('When the record was deleted; null while it exists.', z.date().nullable()),
    executions: readOnly('The latest 20 executions, newest first.', z.array(executionContract.view)),
    steps: readWrite('In stepNumber order.', z.array(stepContract.view), stepList(stepWrite), { writes: 'The HTTP requests of the flow.' }),
  },
  {
    writeOrder: [
      'name',
      'logo',
      'retryDelay',
      'retryDelayUnit',
      'maxRetries',
      'status',
      'flowDirection',
      'flowMapping',
      'tagName',
      'categoryName',
      'predefinedVariables',
      'variables',
      'steps',
      'events',
      'eventFilters',
      'workspaceId',
    ],
  },
);

export const flowContract = defineContract({
  name: 'WebhookFlow',
  view: flow.view,
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

const { workspace: flowWorkspace, ...flowWrites } = flow.write();

/**
 * Fields flow create and update accept, in the documented snake_case: REST validates its
 * body with them as sent, GraphQL's inputs are derived from them (camelCase), and both name
 * the same fields in validation errors.
 */
export const flowFields = flowWrites;

/** The workspace create and update accept beside the flow's fields. */
export const flowWorkspaceFields = { workspace: flowWorkspace };

/** How GraphQL's flow inputs depart from the REST input: the workspace after the steps, the closed sets but the retry unit as text. */
export const flowInputOverride = { after: { workspace: 'steps' }, asText: ['status', 'flow_direction', 'events'] };
