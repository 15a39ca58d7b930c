import type { FieldError } from './errors';
import { fieldPath } from './validation';

/** Deepest nesting of a JSON input (a body, GraphQL variables) accepted: 64 levels of objects and arrays. */
export const MAX_JSON_DEPTH = 64;

/**
 * Why a piece of text cannot be stored: PostgreSQL refuses NUL characters in text and
 * jsonb, and unpaired UTF-16 surrogates are not Unicode (jsonb refuses their escapes, text
 * would silently get U+FFFD instead).
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'NUL characters are not allowed';
  if (UNPAIRED_SURROGATE.test(text)) return 'Unpaired surrogate characters are not allowed';
  return null;
}

const UNSTORABLE = new RegExp(`\\u0000|${UNPAIRED_SURROGATE.source}`, 'g');

/** `text` as PostgreSQL can store it: each NUL and unpaired surrogate (`textProblem`) replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, '\uFFFD');
}

/** JSON.stringify's replacer giving each string, value or key, as `storableText`. */
function storableReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [storableText(key), child]));
}

/**
 * The JSON of `value` with every string as `storableText`: for what is written as it came
 * from outside (a receiver's answer, a model's words), which cannot be refused as inputs are.
 */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  // JSON.stringify writes a NUL and an unpaired surrogate as \u escapes: without one, there is nothing to replace.
  return /\\u(0000|d[89a-f])/i.test(json) ? JSON.stringify(value, storableReplacer) : json;
}

/** A JSON value (no dates) with every string as `storableText`, for the ORM to write. */
export function storableValue<T>(value: T): T {
  return JSON.parse(storableJson(value)) as T;
}

/**
 * Why an input value cannot be taken as it is: text that cannot be stored, in a value or a
 * key, or nesting deeper than MAX_JSON_DEPTH (validation and serialization recurse, and a
 * body of `[[[[...` a few thousand deep overflows the stack). Walks without recursion.
 * Transports check every input with it before a service sees it.
 */
export function unstorable(value: unknown): string | null {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) return problem;
    } else if (item !== null && typeof item === 'object') {
      if (depth >= MAX_JSON_DEPTH) return `JSON nested more than ${MAX_JSON_DEPTH} levels deep`;
      for (const [key, child] of Object.entries(item)) {
        const problem = textProblem(key);
        if (problem) return problem;
        pending.push([child, depth + 1]);
      }
    }
  }
  return null;
}

interface Visit {
  value: unknown;
  key: string | number;
  parent: Visit | null;
  depth: number;
}

const pathOf = (visit: Visit): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let v: Visit | null = visit; v?.parent; v = v.parent) path.unshift(v.key);
  return path;
};

/**
 * Keys that turn into an object's prototype once a value is copied with `Object.assign` or
 * merged: `__proto__`, and `prototype` inside `constructor` (the two patterns
 * secure-json-parse refuses). `JSON.parse` keeps them as plain keys, so valid JSON may carry
 * them; they are refused as a validation failure naming each, before any code copies the
 * value. Walks without recursion, to MAX_JSON_DEPTH (deeper input is refused by `unstorable`).
 */
export function reservedKeys(value: unknown): FieldError[] {
  const found: FieldError[] = [];
  const pending: Visit[] = [{ value, key: '', parent: null, depth: 0 }];
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const item = visit.value;
    if (item === null || typeof item !== 'object' || visit.depth >= MAX_JSON_DEPTH) continue;
    for (const [key, child] of Object.entries(item)) {
      const entry: Visit = { value: child, key: Array.isArray(item) ? Number(key) : key, parent: visit, depth: visit.depth + 1 };
      const prototypeOf = key === 'prototype' && visit.key === 'constructor' && visit.parent !== null;
      if (key === '__proto__' || prototypeOf) found.push({ field: fieldPath(pathOf(entry)), message: 'Not allowed as a key (it would set an object prototype)' });
      else pending.push(entry);
    }
  }
  return found;
}
