import { z } from 'zod';
import { type FieldError, ValidationError } from './errors';

/** `['dynamic_variables', 0, 'name']` -> `dynamic_variables[0].name`; `[]` -> `body`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  const text = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
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

/** The schema a value of `schema` holds its fields in, past optional, nullable, default and piped wrappers. */
export function holder(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return holder(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return holder(schema.in as z.ZodType);
  return schema;
}

function toFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((iss) =>
    iss.code === 'unrecognized_keys' ? iss.keys.map((key) => ({ field: fieldPath([...iss.path, key]), message: 'Unknown field' })) : [{ field: fieldPath(iss.path), message: iss.message }],
  );
}

/**
 * Validates `input` against one operation's schema, in the service (REST's input renamed at
 * its edge, GraphQL's as it arrives). Throws ValidationError naming every offending field as
 * the service names it (camelCase: `steps[0].webhookUrl`; REST renames them back,
 * src/rest/rest-names.ts); returns the parsed, normalised value.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = checkInput(schema, input);
  if ('errors' in result) throw new ValidationError(result.errors);
  return result.data;
}

/** `parseInput` without the throw, for callers that gather the errors of many inputs (the rows of a CSV import). */
export function checkInput<S extends z.ZodType>(schema: S, input: unknown): { data: z.output<S> } | { errors: FieldError[] } {
  const result = schema.safeParse(input, { error: messages });
  return result.success ? { data: result.data } : { errors: toFieldErrors(result.error) };
}
