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
 * The fields a connection's query selects on its nodes (`edges { node { … } }`), through
 * fragments, under any alias, whatever their directives (`@include`, `@skip`: a field that
 * may be left out is counted in).
 */
export function nodeFields(info: GraphQLResolveInfo): FieldNode[] {
  return fieldsUnder(info, fieldsUnder(info, fieldsUnder(info, info.fieldNodes, info.fieldName), 'edges'), 'node');
}

/** The fields selected under those of `fields` named `name` (every alias of it), through fragments. */
export function fieldsUnder(info: GraphQLResolveInfo, fields: readonly FieldNode[], name: string): FieldNode[] {
  const fragments = new Map(Object.entries(info.fragments));
  return fields.filter((f) => f.name.value === name).flatMap((f) => selectedFields(f.selectionSet, fragments));
}
