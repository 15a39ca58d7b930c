import { textProblem } from '../../db/storable';
import type { FieldError } from './errors';
import { fieldPath } from './validation';

/** Deepest nesting of a JSON input (a body, GraphQL variables) accepted: 64 levels of objects and arrays. */
export const MAX_JSON_DEPTH = 64;

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
