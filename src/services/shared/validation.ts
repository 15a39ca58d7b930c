import { z } from 'zod';
import { type FieldError, ValidationError } from './errors';
import { camelKeys, camelName, type Naming, snakeName } from './naming';

/** `['dynamic_variables', 0, 'name']` -> `dynamic_variables[0].name`; `[]` -> `body`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  const text = path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
  return text === '' ? 'body' : text;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Default wording for issues a schema did not word itself. */
const messages: z.core.$ZodErrorMap = (iss) => {
  if (iss.code === 'invalid_type') {
    if (iss.input === undefined) return 'Required';
    // JSON numbers past 1.8e308 parse as Infinity: a number, but none a service can use.
    if (typeof iss.input === 'number' && !Number.isFinite(iss.input)) return 'Expected a finite number';
    return `Expected ${iss.expected}, received ${describe(iss.input)}`;
  }
  return undefined;
};

/** How errors name the fields of an input: as it names them, or as `names` says (`steps[0].webhookUrl` as `steps[0].webhook_url`). */
export type FieldNames = (path: readonly PropertyKey[]) => PropertyKey[];

const asSent: FieldNames = (path) => [...path];

/** The schema a value of `schema` holds its fields in, past optional, nullable, default and piped wrappers. */
export function holder(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return holder(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return holder(schema.in as z.ZodType);
  return schema;
}

/**
 * `path` into a camelCased write, named as `documented` (the same write in snake_case)
 * names it: each key of an object of fields is the documented field it camelCases
 * (`webhookUrl` -> `webhook_url`, `predefinedVariables` and `stepId` as documented); keys
 * of client data (a JSON object's, a map's) stay as sent.
 */
function documentedPath(documented: z.ZodType, path: readonly PropertyKey[]): PropertyKey[] {
  if (path.length === 0) return [];
  const [key, ...rest] = path;
  const schema = holder(documented);
  if (schema instanceof z.ZodArray && typeof key === 'number') return [key, ...documentedPath(schema.element as z.ZodType, rest)];
  if (!(schema instanceof z.ZodObject) || typeof key !== 'string') return [...path];
  const shape = schema.shape as z.ZodRawShape;
  const field = key in shape ? key : Object.keys(shape).find((k) => camelName(k) === key);
  return field === undefined ? [snakeName(key), ...rest] : [field, ...documentedPath(shape[field] as z.ZodType, rest)];
}

function toFieldErrors(error: z.ZodError, names: FieldNames): FieldError[] {
  return error.issues.flatMap((iss) =>
    iss.code === 'unrecognized_keys'
      ? iss.keys.map((key) => ({ field: fieldPath(names([...iss.path, key])), message: 'Unknown field' }))
      : [{ field: fieldPath(names(iss.path)), message: iss.message }],
  );
}

/**
 * Validates `input` against one operation's schema, shared by REST and GraphQL. Throws
 * ValidationError naming every offending field (as `names` says: GraphQL's camelCase input
 * is validated as it arrives, and its errors name the documented snake_case fields);
 * returns the parsed, normalised value.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, names: FieldNames = asSent): z.output<S> {
  const result = checkInput(schema, input, names);
  if ('errors' in result) throw new ValidationError(result.errors);
  return result.data;
}

/** `parseInput` without the throw, for callers that gather the errors of many inputs (the rows of a CSV import). */
export function checkInput<S extends z.ZodType>(schema: S, input: unknown, names: FieldNames = asSent): { data: z.output<S> } | { errors: FieldError[] } {
  const result = schema.safeParse(input, { error: messages });
  return result.success ? { data: result.data } : { errors: toFieldErrors(result.error, names) };
}

/** One write's schema under both namings: REST's documented snake_case fields, and the same fields camelCased. */
export interface WriteSchemas<S extends z.ZodType, C extends z.ZodType> {
  snake_case: S;
  camelCase: C;
  /**
   * REST's validated body under the camelCase names, where renaming its fields (each row's)
   * is not enough: a flow's steps are renamed too, its event filters keep their stored keys.
   */
  renamed?: (parsed: z.output<S>) => z.output<C>;
}

/**
 * Validates a write named as `naming` says with that naming's schema, and answers it
 * camelCase: REST's body (each row of an array) is renamed once, after validation;
 * GraphQL's input is validated as it arrives. Errors name the snake_case fields either way,
 * nested ones too (a flow's `steps[0].webhook_url`).
 */
export function parseWrite<S extends z.ZodType, C extends z.ZodType>(write: WriteSchemas<S, C>, input: unknown, naming: Naming): z.output<C> {
  if (naming === 'camelCase') return parseInput(write.camelCase, input, (path) => documentedPath(write.snake_case, path));
  const parsed = parseInput(write.snake_case, input);
  if (write.renamed) return write.renamed(parsed);
  // The camelCase schema holds the snake_case one's fields under camelCased names, so the renamed value is its output.
  return (Array.isArray(parsed) ? parsed.map((row: object) => camelKeys(row)) : camelKeys(parsed as object)) as z.output<C>;
}
