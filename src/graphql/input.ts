import { ValidationError } from '../services/errors';

const snake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * An object TypeGraphQL built from an `@InputType` class. Values of JSON scalars arrive as
 * plain objects (prototype Object or null) and are not input objects: their keys are the
 * client's data (contact metadata, a step body) and are never renamed.
 */
function isInputObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || value instanceof Date) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto !== Object.prototype && proto !== null;
}

function convert(value: unknown, rename: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, rename));
  if (!isInputObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [rename ? snake(k) : k, convert(v, rename)]),
  );
}

/**
 * The one conversion from a GraphQL input (camelCase) to the services' raw input
 * (snake_case), which the service then validates exactly as it does for REST: validation
 * errors name the same snake_case fields with the same messages. Nested input objects and
 * lists are converted too; JSON scalar values are passed as sent. Keys listed in
 * `verbatim` keep their names, and so does everything inside them: the inputs the REST
 * contract itself names in camelCase (a flow's `variables` and `predefinedVariables`).
 */
export function toServiceInput(input: object, verbatim: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => (verbatim.includes(k) ? [k, convert(v, false)] : [snake(k), convert(v, true)])),
  );
}

/**
 * Optional filter arguments -> the services' input: an argument left out or sent as null
 * filters nothing.
 */
export function toFilterInput(filters: Record<string, unknown>): Record<string, unknown> {
  return toServiceInput(Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== null)));
}

/** Most nodes one page of a connection may hold. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/**
 * Relay `first`/`after` -> the services' `limit`/`cursor`. `first` is capped at
 * MAX_PAGE_SIZE here, below the REST limit, because one GraphQL query can nest pages.
 */
export function pageInput(first: number, after?: string | null): { limit: number; cursor?: string } {
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw ValidationError.of('first', `Must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  return after ? { limit: first, cursor: after } : { limit: first };
}
