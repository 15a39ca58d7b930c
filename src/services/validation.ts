import { z } from 'zod';
import { type FieldError, ValidationError } from './errors';

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

function toFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((iss) =>
    iss.code === 'unrecognized_keys'
      ? iss.keys.map((key) => ({ field: fieldPath([...iss.path, key]), message: 'Unknown field' }))
      : [{ field: fieldPath(iss.path), message: iss.message }],
  );
}

/**
 * Validates `input` against one operation's schema, shared by REST and GraphQL. Throws
 * ValidationError naming every offending field; returns the parsed, normalised value.
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
