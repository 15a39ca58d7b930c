import { registerEnumType } from 'type-graphql';

/** The GraphQL enum of each closed set, by its values: contract fields typed `z.enum(values)` find theirs here. */
const byValues = new Map<string, Record<string, string>>();

/** The GraphQL enum registered for a closed set of `values`. */
export function closedSetOf(values: readonly string[]): Record<string, string> {
  const members = byValues.get(values.join('|'));
  if (!members) throw new Error(`No GraphQL enum is registered for the values ${values.join(', ')}`);
  return members;
}

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
  byValues.set(values.join('|'), members);
  return members;
}
