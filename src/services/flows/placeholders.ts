/**
 * `{{name}}` placeholders and the values that fill them. Pure functions: no I/O, no time.
 */

export type Scope = Record<string, unknown>;

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([\w.-]+)\s*\}\}$/;

/** How a value reads inside a string: objects as JSON, null and missing values as ''. */
function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  // What JSON leaves: numbers and booleans.
  return `${value as number | boolean}`;
}

/**
 * The value at a dotted path (`firstname`, `metadata.plan`) in a record; undefined when any
 * step is missing. Only own properties count, never an inherited one such as `constructor`.
 */
export function valueAt(source: unknown, path: string): unknown {
  let value: unknown = source;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * The value a placeholder names: a variable of that very name (names may hold dots), else
 * a dotted path into a variable's value, `call.call_status` say (event subscriptions hand
 * flows whole records). Only a source's own names count, never an inherited property such
 * as `constructor`. Undefined when the path leads nowhere.
 */
export const lookup = (scope: Scope, name: string): unknown => (Object.hasOwn(scope, name) ? scope[name] : valueAt(scope, name));

/** Fills every placeholder of `text`; unknown names become ''. */
export function fillText(text: string, scope: Scope): string {
  return text.replace(PLACEHOLDER, (_, name: string) => asText(lookup(scope, name)));
}

/**
 * Fills a JSON body: strings and keys are filled as text, except a string that is exactly
 * one placeholder, which takes the value itself (a number stays a number, an object an object).
 */
export function fillJson(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value);
    if (whole) return lookup(scope, whole[1]) ?? '';
    return fillText(value, scope);
  }
  if (Array.isArray(value)) return value.map((item) => fillJson(item, scope));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [fillText(k, scope), fillJson(v, scope)]));
  }
  return value;
}

/** Fills the values (and names) of a string map such as headers or query parameters. */
export function fillMap(map: Record<string, string>, scope: Scope): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [fillText(k, scope), fillText(v, scope)]));
}

/** Every placeholder name in `value`: in strings, and in object keys, at any depth. */
function placeholderNames(value: unknown, names: Set<string>): Set<string> {
  if (typeof value === 'string') for (const match of value.matchAll(PLACEHOLDER)) names.add(match[1]);
  else if (Array.isArray(value)) for (const item of value) placeholderNames(item, names);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      placeholderNames(key, names);
      placeholderNames(item, names);
    }
  }
  return names;
}

/**
 * The placeholder names of `templates` that no source gave a value (filled as ''), sorted:
 * what a step's log reports as `unresolved_variables`. A name given as null is resolved.
 */
export function unresolvedNames(templates: unknown[], scope: Scope): string[] {
  const names = placeholderNames(templates, new Set());
  return [...names].filter((name) => lookup(scope, name) === undefined).sort();
}

/**
 * Reads `location` from a response: `status`, `headers.x-id` (any case), `body.items.0.id`
 * or `body.items[0].id`. Undefined when the path leads nowhere.
 */
export function readPath(source: { status: number; headers: Record<string, string>; body: unknown }, location: string): unknown {
  const parts = location
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((p) => p !== '');
  const [root, ...rest] = parts;
  if (root === 'headers') return rest.length === 0 ? source.headers : source.headers[rest.join('.').toLowerCase()];
  const value = root === 'status' ? source.status : root === 'body' ? source.body : undefined;
  return rest.length === 0 ? value : valueAt(value, rest.join('.'));
}

/**
 * Converts an extracted value to the variable's `dataType`: `string`, `number`, `integer`,
 * `boolean`, `json`/`object`/`array` (kept as is). Undefined when it does not convert.
 */
export function coerce(value: unknown, dataType: string | undefined): unknown {
  if (value === undefined || value === null) return undefined;
  const type = (dataType ?? '').toLowerCase();
  switch (type) {
    case 'string':
      return asText(value);
    case 'number':
    case 'integer':
    case 'float': {
      const n = typeof value === 'number' ? value : Number(asText(value).trim());
      if (!Number.isFinite(n) || asText(value).trim() === '') return undefined;
      return type === 'integer' ? Math.trunc(n) : n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (['true', '1', 'yes'].includes(asText(value).toLowerCase())) return true;
      if (['false', '0', 'no'].includes(asText(value).toLowerCase())) return false;
      return undefined;
    default:
      return value;
  }
}
