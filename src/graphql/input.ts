import { ValidationError } from '../services/shared/errors';
import { snakeName } from '../services/shared/naming';

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

function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  if (!isInputObject(value)) return value;
  return restNamedInput(value);
}

/**
 * A GraphQL input (camelCase) under REST's snake_case names, for one use only: make-call's
 * replay fingerprint. Services take GraphQL's input as it arrives, but the make-call keys
 * kept before they did were fingerprinted by the input so named, and another naming would
 * refuse their clients' retries (422). Nested input objects and lists are converted too;
 * JSON scalar values are passed as sent.
 */
export function restNamedInput(input: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [snakeName(k), convert(v)]),
  );
}

/**
 * Optional filter arguments -> the service's input: an argument left out or sent as null
 * filters nothing.
 */
export function presentFilters<T extends object>(filters: T): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: Exclude<T[K], null> };
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
