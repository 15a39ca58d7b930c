import type { Middleware } from 'koa';
import type { RestState } from './middleware';
import { z } from 'zod';
import { PreconditionError, ValidationError } from '../services/shared/errors';
import { storedKeys } from '../services/shared/contract';
import { camelName, snakeName } from '../services/shared/naming';
import { fieldPath, holder } from '../services/shared/validation';

/**
 * REST's one renaming. Services take camelCase input (GraphQL's names, the entities'); REST
 * documents snake_case bodies and query strings. An operation's input is renamed here once,
 * before its handler runs, by the schema the operation documents (`body`, `query`: the
 * contract's REST fields), and the field names of the errors it raises are renamed back, so
 * REST answers name what REST clients send and GraphQL answers what GraphQL clients send.
 *
 * The renaming follows the documented schema down through objects and arrays of objects (a
 * flow's `steps[0].webhook_url`, its `event_filters.ai_agent_id`); the keys of client data
 * (a record: contact `metadata`, a trigger's `variables`) and of objects kept as stored
 * (`keyedAsStored`: an agent's `agent_flow`) are never renamed. A key the schema
 * does not document is passed as sent, for the service to refuse (`Unknown field`) or ignore
 * as it does any unknown key; one that would pass for a renamed field (`aiAgentId` sent to
 * REST) is passed under a name no field has, so it stays unknown.
 */

/** The option of a union (one contact or an import) that documents `value`: an array's or an object's. */
function optionFor(schema: z.ZodType | undefined, value: unknown): z.ZodType | undefined {
  const inner = schema && holder(schema);
  if (!(inner instanceof z.ZodUnion)) return schema;
  return (inner.options as z.ZodType[]).find((option) => (Array.isArray(value) ? elementOf(option) : fieldsOf(option))) ?? schema;
}

/** The schema of an object's fields, if `schema` holds one (past optional, nullable and piped wrappers) whose keys are renamed. */
function fieldsOf(schema: z.ZodType | undefined): z.ZodRawShape | undefined {
  const inner = schema && holder(schema);
  return inner instanceof z.ZodObject && !storedKeys.has(inner) ? inner.shape : undefined;
}

function elementOf(schema: z.ZodType | undefined): z.ZodType | undefined {
  const inner = schema && holder(schema);
  return inner instanceof z.ZodArray ? (inner.element as z.ZodType) : undefined;
}

/** Under which name the service receives the key `sent` of an object whose documented fields are `shape`. */
function serviceKey(shape: z.ZodRawShape, sent: string): string {
  if (sent in shape) return camelName(sent);
  const posing = Object.keys(shape).some((field) => field !== sent && camelName(field) === sent);
  // No key a client sends holds NUL (`unstorable` refuses it), so this name is no field's and no other key's.
  return posing ? `\u0000${sent}` : sent;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` (a REST body or query) under the names the service reads, as `schema` documents them. */
export function toServiceNames(documented: z.ZodType | undefined, value: unknown): unknown {
  const schema = optionFor(documented, value);
  const element = elementOf(schema);
  if (Array.isArray(value)) return element ? value.map((item) => toServiceNames(element, item)) : value;
  const shape = fieldsOf(schema);
  if (!shape || !isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [serviceKey(shape, key), toServiceNames(shape[key] as z.ZodType | undefined, item)]));
}

/** `field` (`steps[0].webhookUrl`) parsed into its path; `body` is the root. */
function pathOf(field: string): PropertyKey[] {
  if (field === 'body') return [];
  return [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map(([, key, index]) => (index === undefined ? key : Number(index)));
}

/** A camelCase name a service gives a field (`phoneNumber`), which REST names in snake_case. */
const CAMEL_NAME = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

/**
 * The REST name of a service's path into `sent` (what the client sent, documented by
 * `schema`): a key sent is named as sent; a field left out or named by the service itself
 * (`aiAgentId` in "An active campaign needs an agent") as the schema documents it; past
 * what the schema documents (a CSV import's rows), a camelCase name in snake_case, and the
 * rest as it is from the first name that is not (client data: `[14].metadata.planName`).
 */
function restPath(documented: z.ZodType | undefined, sent: unknown, path: readonly PropertyKey[]): PropertyKey[] {
  if (path.length === 0) return [];
  const schema = optionFor(documented, sent);
  const [key, ...rest] = path;
  if (typeof key === 'number') return [key, ...restPath(elementOf(schema), Array.isArray(sent) ? sent[key] : undefined, rest)];
  const shape = fieldsOf(schema);
  // Client data (a record, an object kept as stored): its keys are as sent.
  if (!shape && schema) return [...path];
  const fields = shape ?? {};
  const keys = isPlainObject(sent) ? Object.keys(sent) : [];
  const name = keys.find((k) => serviceKey(fields, k) === key) ?? Object.keys(fields).find((f) => camelName(f) === key);
  if (name !== undefined) return [name, ...restPath(fields[name] as z.ZodType | undefined, isPlainObject(sent) ? sent[name] : undefined, rest)];
  return CAMEL_NAME.test(String(key)) ? [snakeName(String(key)), ...restPath(undefined, undefined, rest)] : [...path];
}

/** A service's input as REST sent it, with the schema that documents it. */
interface Sent {
  schema: z.ZodType | undefined;
  value: unknown;
}

/** Whether `key` names a field of `input`, sent or documented. */
const holds = ({ schema, value }: Sent, key: PropertyKey): boolean => [...(isPlainObject(value) ? Object.keys(value) : []), ...Object.keys(fieldsOf(schema) ?? {})].some((k) => camelName(k) === key);

/** `field` as REST names it, by the input (body or query) that holds its first key, else the first. */
function restField(field: string, inputs: readonly Sent[]): string {
  const path = pathOf(field);
  const input = inputs.find((sent) => holds(sent, path[0])) ?? inputs[0];
  return fieldPath(restPath(input?.schema, input?.value, path));
}

/** Whether `schema` documents a field `key` (a service name), at any depth. */
function documents(schema: z.ZodType | undefined, key: string): boolean {
  const inner = schema && holder(schema);
  if (inner instanceof z.ZodUnion) return (inner.options as z.ZodType[]).some((option) => documents(option, key));
  const element = elementOf(schema);
  if (element) return documents(element, key);
  const shape = fieldsOf(schema);
  return !!shape && Object.entries(shape).some(([field, value]) => camelName(field) === key || documents(value as z.ZodType, key));
}

/** A field a message names as the service writes it: a camelCase name, then its path (`agentFlow.states`). */
const NAMED_FIELD = /\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+(?:\.[a-z][A-Za-z0-9]*)*\b/g;

/**
 * `message` with each field of the operation's input it names (`Must not be greater than
 * reminderFrequencyTo`) as REST names it; other words, client data among them, as they are.
 */
function restMessage(message: string, inputs: readonly Sent[]): string {
  return message.replace(NAMED_FIELD, (named) => (inputs.some((sent) => documents(sent.schema, String(pathOf(named)[0]))) ? restField(named, inputs) : named));
}

/** `err` with the fields it names, and those its messages name, renamed for REST. */
function restNamed(err: unknown, inputs: readonly Sent[]): unknown {
  if (err instanceof ValidationError)
    return new ValidationError(
      err.fields.map(({ field, message }) => ({ field: restField(field, inputs), message: restMessage(message, inputs) })),
      err.message,
    );
  if (err instanceof PreconditionError && err.field) return new PreconditionError(restMessage(err.message, inputs), restField(err.field, inputs));
  return err;
}

/**
 * The middleware of an authenticated operation: `ctx.state.input` is its JSON body and its
 * query under the service's names, and errors name REST's fields.
 */
export function restNames(op: { body?: z.ZodType; query?: z.ZodType; bodies?: Partial<Record<string, z.ZodType>> }): Middleware<RestState> {
  return async (ctx, next) => {
    const inputs: Sent[] = [];
    if (op.body) inputs.push({ schema: op.body, value: ctx.request.body });
    if (op.query) inputs.push({ schema: op.query, value: ctx.query });
    // A body its handler reads itself (a CSV upload's parts) is named as its schema documents it.
    for (const schema of Object.values(op.bodies ?? {})) inputs.push({ schema, value: undefined });
    ctx.state.input = { body: toServiceNames(op.body, ctx.request.body), query: toServiceNames(op.query, ctx.query) };
    try {
      await next();
    } catch (err) {
      throw restNamed(err, inputs);
    }
  };
}

/**
 * A REST input under the service's names, typed as the service method's input it is passed
 * to (that type is derived from the schema the service validates it with): REST does not
 * check it, the service does, as it checks GraphQL's.
 */
export const asServiceInput = <T>(renamed: unknown): T => renamed as T;

/** The operation's renamed body or query (`restNames`), as `asServiceInput`. */
export const serviceInput = <T>(ctx: { state: RestState }, from: 'body' | 'query'): T => asServiceInput<T>(ctx.state.input[from]);
