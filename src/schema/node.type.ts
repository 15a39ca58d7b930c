import { Field, ID, InterfaceType } from 'type-graphql';

/** The object types `node(id)` can answer, by the name of their GraphQL type. */
export type NodeTypeName = 'Call' | 'Campaign' | 'Contact' | 'AiAgent' | 'WebhookFlow';

/** A node answered by `node(id)`, tagged with its type (graphql-js reads `__typename`). */
export type TaggedNode<T> = T & { __typename: NodeTypeName };

/**
 * Relay's Node interface. Global ids are the records' own UUIDs (version 4, which do not
 * collide across types): the same id REST and every other field use, so nothing is encoded
 * and no id changes (docs/graphql.md, "Global ids").
 */
@InterfaceType('Node', {
  description: 'An object with a global id, refetchable with `node(id)` (Relay Global Object Identification).',
  resolveType: (value: { __typename?: NodeTypeName }) => value.__typename,
})
export abstract class Node {
  @Field(() => ID, { description: 'Global id: the record UUID, the same on REST.' })
  id!: string;
}
