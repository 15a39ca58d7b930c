import { z } from 'zod';
import { EXAMPLE_ID } from './common.input';
import { snakeName } from './naming';
import type { PhoneParser } from './phone';

/**
 * What a field of a view means, for the surfaces that document it (GraphQL descriptions).
 * A registry of its own, not zod's global one: /openapi.json is generated from the global
 * registry and documents the legacy REST shapes without field descriptions.
 */
export const fieldDocs = z.registry<{ description: string }>();

/** Nested objects of a view that GraphQL shows as types of their own, by name. */
export const objectDocs = z.registry<{ name: string; description: string; asText?: readonly string[] }>();

/**
 * Objects of a write whose keys are data, named as stored (an agent's `agent_flow`): no
 * surface renames them (REST's body keeps them, GraphQL takes the object as any JSON object).
 */
export const storedKeys = z.registry();

/** `schema`, an object whose keys no surface renames (see `storedKeys`). */
export function keyedAsStored<T extends z.ZodType>(schema: T): T {
  storedKeys.add(schema);
  return schema;
}

/**
 * A nested object of a view or a write, named and documented for GraphQL (`DynamicVariable`);
 * `asText`: enum fields GraphQL types as plain text (the service validates the values).
 */
export function namedObject<T extends z.ZodObject>(schema: T, name: string, description: string, options: { asText?: readonly string[] } = {}): T {
  objectDocs.add(schema, { name, description, ...options });
  return schema;
}

/** `schema`, documented: `described(z.string(), 'Name of the campaign.')`. */
export function described<T extends z.ZodType>(schema: T, description: string): T {
  fieldDocs.add(schema, { description });
  return schema;
}

/**
 * The description of a contract field (every field has one: the GraphQL lint requires it):
 * its own (`described`), else the one /openapi.json shows (`.describe()`, for the inputs REST
 * documents field by field).
 */
export function descriptionOf(schema: z.ZodType): string {
  const description = fieldDocs.get(schema)?.description ?? schema.description;
  if (description === undefined) throw new Error('A contract field has no description: declare it with described()');
  return description;
}

/** A field's write rule: a schema, or one built with the phone parser of the caller's region (a number in any format). */
export type WriteRule = z.ZodType | ((parser: PhoneParser) => z.ZodType);

/**
 * One field of an aggregate, declared once: what it means, how reads show it (`read`, the
 * view's schema) and what writes accept (`write`); a field without one of them is read-only
 * or write-only. `writes` documents the write apart where it accepts more than the read
 * shows (a number in any format, the range of a setting); `writtenAs` names the write when
 * it is not the snake_case of the field's name.
 */
export interface FieldDeclaration<R extends z.ZodType | undefined = z.ZodType | undefined, W extends WriteRule | undefined = WriteRule | undefined> {
  description: string;
  read: R;
  write: W;
  writes?: string;
  writtenAs?: string;
}

/** A field reads show and writes accept: `readWrite('Name of the campaign.', z.string(), requiredText(200))`. */
export const readWrite = <R extends z.ZodType, W extends WriteRule, const N extends string | undefined = undefined>(
  description: string,
  read: R,
  write: W,
  options: { writes?: string; writtenAs?: N } = {},
): FieldDeclaration<R, W> & { writtenAs: N } => ({ description, read, write, ...options }) as FieldDeclaration<R, W> & { writtenAs: N };

/** A field reads show and no write sets: `readOnly('When the record was created.', z.date())`. */
export const readOnly = <R extends z.ZodType>(description: string, read: R): FieldDeclaration<R, undefined> => ({ description, read, write: undefined });

/** A field writes accept and reads do not show (make-call's variables, a new record's workspace). */
export const writeOnly = <W extends WriteRule, const N extends string | undefined = undefined>(
  description: string,
  write: W,
  options: { writtenAs?: N } = {},
): FieldDeclaration<undefined, W> & { writtenAs: N } => ({ description, read: undefined, write, ...options }) as FieldDeclaration<undefined, W> & { writtenAs: N };

type Declarations = Record<string, FieldDeclaration>;

/** `aiAgentId` -> `ai_agent_id`, as a type. */
type SnakeCase<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}` : S;

type ViewShape<F extends Declarations> = { [K in keyof F as F[K]['read'] extends z.ZodType ? K : never]: Exclude<F[K]['read'], undefined> };
type WriteName<K, D> = D extends { writtenAs: infer N extends string } ? N : SnakeCase<K & string>;
type WriteSchema<W> = W extends (parser: PhoneParser) => infer S ? S : W;
/** The write fields of declarations, in REST's snake_case: `{ai_agent_id: ...}`. */
export type WriteShape<F extends Declarations> = { [K in keyof F as F[K]['write'] extends WriteRule ? WriteName<K, F[K]> : never]: WriteSchema<F[K]['write']> };

const parserFor = (key: string, parser: PhoneParser | undefined): PhoneParser => {
  if (!parser) throw new Error(`The write of ${key} reads phone numbers: pass a parser`);
  return parser;
};

/**
 * An aggregate's fields declared once (`readWrite`, `readOnly`, `writeOnly`), in the view's
 * order: `view` is the view (each read described), and `write(parser)` the fields writes
 * accept in REST's snake_case (each write described), in `writeOrder` when the documented
 * write lists them otherwise than the view. Services validate the same fields camelCased.
 */
export function declareFields<F extends Declarations>(fields: F, options: { writeOrder?: readonly (keyof F & string)[] } = {}) {
  const view = z.object(Object.fromEntries(Object.entries(fields).flatMap(([key, f]) => (f.read ? [[key, described(f.read, f.description)]] : []))) as ViewShape<F>);
  const writable = Object.keys(fields).filter((key) => fields[key].write);
  const order = options.writeOrder ?? writable;
  if (order.length !== writable.length || !writable.every((key) => order.includes(key))) throw new Error('writeOrder must list every written field once');
  /** The write fields (those of `only`, in the write's order, when given); a rule reading numbers needs `parser`. */
  const write = <K extends keyof F & string = keyof F & string>(parser?: PhoneParser, only?: readonly K[]): WriteShape<Pick<F, K>> =>
    Object.fromEntries(
      order
        .filter((key) => !only || only.includes(key as K))
        .map((key) => {
          const { write: rule, writtenAs, writes, description } = fields[key];
          return [writtenAs ?? snakeName(key), described(typeof rule === 'function' ? rule(parserFor(key, parser)) : (rule as z.ZodType), writes ?? description)];
        }),
    ) as WriteShape<Pick<F, K>>;
  return { view, write };
}

/**
 * How one surface's shape departs from the view: fields it leaves out, and fields it
 * places elsewhere (`after: {createdAt: 'timeZone'}` puts `createdAt` right after
 * `timeZone`; null puts it first), applied in the order written.
 */
export interface SurfaceOverride<K extends string> {
  omit?: readonly K[];
  after?: Partial<Record<K, K | null>>;
}

/**
 * One aggregate's contract: its view (camelCase, typed, documented), which services
 * return and from which the REST shape, the OpenAPI schema and the GraphQL type derive,
 * with the departures of each surface declared here rather than written as another shape.
 */
export interface Contract<S extends z.ZodRawShape> {
  /** The name of the REST schema in /openapi.json and of the GraphQL type. */
  name: string;
  view: z.ZodObject<S>;
  /** The documented REST shape: snake_case of the view's names, except `rename`. */
  rest?: SurfaceOverride<keyof S & string> & { rename?: Partial<Record<keyof S & string, string>> };
  /** `as`: fields GraphQL types otherwise than their schema says (`GraphQLTypeAs`). */
  graphql?: SurfaceOverride<keyof S & string> & { as?: Partial<Record<keyof S & string, GraphQLTypeAs>> };
}

/**
 * How GraphQL types a field whose view schema says otherwise: `anyJson`, any JSON value
 * (`JSON`); `jsonObject`, a JSON object (`JSONObject`) rather than a typed object; `id`, an
 * `ID` although the view (and REST) hold plain text; `text`, an enum as plain `String`.
 */
export type GraphQLTypeAs = 'anyJson' | 'jsonObject' | 'id' | 'text';

export type ViewOf<C> = C extends Contract<infer S> ? z.output<z.ZodObject<S>> : never;

/** The contract of each view, so a surface can show a view nested in another (a flow's steps) as its own shape. */
const contractsByView = new WeakMap<z.ZodType, Contract<z.ZodRawShape>>();

export function defineContract<S extends z.ZodRawShape>(contract: Contract<S>): Contract<S> {
  contractsByView.set(contract.view, contract as unknown as Contract<z.ZodRawShape>);
  return contract;
}

/** The contract whose view `schema` is, if any. */
export const contractOfView = (schema: z.ZodType): Contract<z.ZodRawShape> | undefined => contractsByView.get(schema);

/** The fields of `shape` as a surface shows them: without the omitted ones, moved as `override` says. */
export function arranged(shape: z.ZodRawShape, override: SurfaceOverride<string> = {}): [key: string, schema: z.ZodType][] {
  const keys = Object.keys(shape).filter((k) => !override.omit?.includes(k));
  for (const [key, after] of Object.entries(override.after ?? {})) {
    if (!keys.includes(key) || (after && !keys.includes(after))) throw new Error(`A surface moves ${key} after ${after}: not both fields of it`);
    keys.splice(keys.indexOf(key), 1);
    keys.splice(after ? keys.indexOf(after) + 1 : 0, 0, key);
  }
  return keys.map((k) => [k, shape[k] as z.ZodType]);
}

/** The view's fields as one surface shows them, in its order. */
export const surfaceFields = <S extends z.ZodRawShape>(contract: Contract<S>, surface: 'rest' | 'graphql') => arranged(contract.view.shape, contract[surface]);

/** Field types the views share; every surface reads them the same way (REST and GraphQL alike). */
export const field = {
  /** A record id (UUID); GraphQL `ID`. */
  id: () => z.guid().meta({ examples: [EXAMPLE_ID] }),
  /** Client data, an object of any keys; GraphQL `JSONObject`. */
  json: () => z.record(z.string(), z.unknown()),
  /** A phone number in E.164, as stored. */
  phone: () => z.string().meta({ examples: ['+14155552671'] }),
};

/** A view's field names, which of them hold instants (`isInstant`), by position and as a set: read once per view, not once per record (docs/performance.md, "Volume"). */
const viewFields = new WeakMap<z.ZodObject, { keys: string[]; instants: boolean[]; instantKeys: Set<string> }>();

function fieldsOf(view: z.ZodObject): { keys: string[]; instants: boolean[]; instantKeys: Set<string> } {
  let fields = viewFields.get(view);
  if (!fields) {
    const entries = Object.entries(view.shape);
    const instants = entries.map(([, schema]) => isInstant(schema as z.ZodType));
    fields = { keys: entries.map(([key]) => key), instants, instantKeys: new Set(entries.filter((_, i) => instants[i]).map(([key]) => key)) };
    viewFields.set(view, fields);
  }
  return fields;
}

/** The fields of `view` that hold instants (`isInstant`). */
export function instantFieldsOf(view: z.ZodObject): Set<string> {
  return new Set(fieldsOf(view).instantKeys);
}

/** A stored view's value as the view holds it: an instant's ISO text as a Date, anything else as it is. */
const storedValue = (instant: boolean, value: unknown): unknown => (instant && value !== null ? new Date(value as string) : value);

/**
 * The view of `entity`: each field read from the entity property of the same name; a
 * field `xId` from the relation `x` (its id, or null); `computed` for the others.
 */
export function viewOf<S extends z.ZodRawShape, E extends object>(contract: Contract<S>, entity: E, computed: Partial<Record<keyof S, (entity: E) => unknown>> = {}): z.output<z.ZodObject<S>> {
  const record = entity as Record<string, unknown>;
  const view: Record<string, unknown> = {};
  for (const key of fieldsOf(contract.view).keys) {
    const compute = computed[key as keyof S];
    if (compute) view[key] = compute(entity);
    else if (key in record || !key.endsWith('Id')) view[key] = record[key];
    else view[key] = (record[key.slice(0, -2)] as { id: string } | null | undefined)?.id ?? null;
  }
  // The view's types are the entity's: test/api/contracts/parity.test.ts parses views with their contract.
  return view as z.output<z.ZodObject<S>>;
}

/** Whether a view field holds an instant (a Date, or null), which surfaces write as ISO 8601 text. */
export const isInstant = (schema: z.ZodType): boolean => schema instanceof z.ZodDate || (schema instanceof z.ZodNullable && schema.unwrap() instanceof z.ZodDate);

/** The fields `keys` of the view `view` from a stored view holding (at least) them, instants as Dates (`viewOfStored` of those fields only). */
export function fieldsOfStored<S extends z.ZodRawShape>(view: z.ZodObject<S>, stored: object, keys: readonly (keyof S & string)[]): Partial<z.output<z.ZodObject<S>>> {
  const record = stored as Record<string, unknown>;
  const { instantKeys } = fieldsOf(view);
  const fields: Record<string, unknown> = {};
  for (const key of keys) fields[key] = storedValue(instantKeys.has(key), record[key]);
  return fields as Partial<z.output<z.ZodObject<S>>>;
}

/** The view (`view`, a contract's or part of one) of a stored view (`StoredView`, instants as ISO text): the same fields, instants as Dates. */
export function viewOfStored<S extends z.ZodRawShape>(view: z.ZodObject<S>, stored: object): z.output<z.ZodObject<S>> {
  const record = stored as Record<string, unknown>;
  const { keys, instants } = fieldsOf(view);
  const fields: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) fields[keys[i]] = storedValue(instants[i], record[keys[i]]);
  return fields as z.output<z.ZodObject<S>>;
}
