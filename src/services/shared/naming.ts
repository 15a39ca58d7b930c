/**
 * The two namings of a write's fields: REST's documented snake_case, and camelCase, as
 * services, GraphQL's inputs (derived from the same fields) and the entities name them.
 * REST renames between them once, at its edge (src/rest/rest-names.ts).
 */

/** `ai_agent_id` -> `aiAgentId`, as a type. */
export type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

/** An object type with its keys camelCased. */
export type CamelKeys<T> = { [K in keyof T & string as CamelCase<K>]: T[K] };

/** `ai_agent_id` -> `aiAgentId`. */
export const camelName = (key: string): string => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** `aiAgentId` -> `ai_agent_id`. */
export const snakeName = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** `{ai_agent_id: 1, call_to: 2}` -> `{aiAgentId: 1, callTo: 2}` (one level); fields left undefined are dropped. */
export function camelKeys<T extends object>(input: T): CamelKeys<T> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [camelName(k), v]),
  ) as CamelKeys<T>;
}

/** `{aiAgentId: 1}` -> `{ai_agent_id: 1}` (one level): a nested object's keys as stored; fields left undefined are dropped. */
export function snakeKeys(input: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [snakeName(k), v]),
  );
}
