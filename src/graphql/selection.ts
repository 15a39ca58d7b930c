import { type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/** The fields a selection set asks for, through its inline fragments and fragment spreads (each fragment once). */
export function selectedFields(selectionSet: SelectionSetNode | undefined, fragments: ReadonlyMap<string, FragmentDefinitionNode>, seen = new Set<string>()): FieldNode[] {
  return (selectionSet?.selections ?? []).flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection];
    if (selection.kind === Kind.INLINE_FRAGMENT) return selectedFields(selection.selectionSet, fragments, seen);
    if (seen.has(selection.name.value)) return [];
    seen.add(selection.name.value);
    return selectedFields(fragments.get(selection.name.value)?.selectionSet, fragments, seen);
  });
}

/**
 * The names of the fields a connection's query selects on its nodes (`edges { node { … } }`),
 * through fragments, under any alias, whatever their directives (`@include`, `@skip`: a
 * field that may be left out is counted in).
 */
export function nodeFieldNames(info: GraphQLResolveInfo): Set<string> {
  const fragments = new Map(Object.entries(info.fragments));
  const under = (fields: readonly FieldNode[], name: string) => fields.filter((f) => f.name.value === name).flatMap((f) => selectedFields(f.selectionSet, fragments));
  return new Set(
    under(
      under(
        info.fieldNodes.flatMap((f) => selectedFields(f.selectionSet, fragments)),
        'edges',
      ),
      'node',
    ).map((f) => f.name.value),
  );
}
