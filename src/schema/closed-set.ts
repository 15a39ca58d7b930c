import { registerEnumType } from 'type-graphql';

/** The GraphQL name of a value: `in-progress` and `in_progress` are `IN_PROGRESS`. */
const nameOf = (value: string): string => value.toUpperCase().replace(/-/g, '_');

/**
 * A GraphQL enum over a closed set declared once, beside the entity that stores it: the
 * values are the stored (and REST) ones, named in GraphQL's upper case. Returns the enum
 * object TypeGraphQL types fields with (`@Field(() => CallStatus)`).
 */
export function closedSet<V extends string>(name: string, values: readonly V[], description: string, describe: Record<V, string>): Record<string, V> {
  const members = Object.fromEntries(values.map((v) => [nameOf(v), v]));
  registerEnumType(members, {
    name,
    description,
    valuesConfig: Object.fromEntries(values.map((v) => [nameOf(v), { description: describe[v] }])),
  });
  return members;
}
