import { GraphQLObjectType, GraphQLSchema, printSchema } from 'graphql';
import { buildSchemaSync, type PubSub, type ResolverData } from 'type-graphql';
import { resolverClasses } from '../resolvers';
import type { GraphQLContext } from './context';

/**
 * TypeGraphQL asks for a PubSub whenever a schema has subscriptions, even when each brings
 * its own `subscribe` (ours listen through the context's `events`), so none reaches this one.
 */
const noTopics: PubSub = {
  publish: () => undefined,
  subscribe: () => {
    throw new Error('Subscriptions listen through the context (GraphQLContext.events), not TypeGraphQL topics');
  },
};

/** TypeGraphQL builds the root types itself, without a description. */
const ROOT_DESCRIPTIONS: Record<string, string> = {
  Query: 'Reads, each limited to your company (plus the shared catalogues).',
  Mutation: "Writes, each limited to your company; validation errors name this schema's input fields (`extensions.fields`).",
  Subscription: "Live news of your company's records over graphql-ws; each payload is the record's current state.",
};

/** `schema` with its root types described (graphql-js's toConfig round trip keeps everything else). */
function describeRootTypes(schema: GraphQLSchema): GraphQLSchema {
  const config = schema.toConfig();
  const describe = (type: GraphQLObjectType | null | undefined) => (type ? new GraphQLObjectType({ ...type.toConfig(), description: ROOT_DESCRIPTIONS[type.name] }) : type);
  return new GraphQLSchema({
    ...config,
    query: describe(config.query),
    mutation: describe(config.mutation),
    subscription: describe(config.subscription),
    types: config.types.filter((type) => !(type.name in ROOT_DESCRIPTIONS)),
  });
}

let built: GraphQLSchema | undefined;

/**
 * The executable schema, from the classes of src/schema and src/resolvers: a function of the
 * code, so built once per process (30-50 ms; a process of the tests starts many services).
 * Each operation finds its resolver objects in its context (`GraphQLContext.resolvers`).
 */
export function graphqlSchema(): GraphQLSchema {
  built ??= describeRootTypes(
    buildSchemaSync({
      resolvers: [...resolverClasses],
      validate: false,
      pubSub: noTopics,
      container: ({ context }: ResolverData<GraphQLContext>) => context.resolvers,
    }),
  );
  return built;
}

/** The SDL committed as schema.graphql, in declaration order. */
export const printSDL = (schema: GraphQLSchema): string => `${printSchema(schema)}\n`;
