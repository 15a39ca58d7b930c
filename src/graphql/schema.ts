import { GraphQLObjectType, GraphQLSchema, printSchema } from 'graphql';
import { buildSchemaSync, type PubSub } from 'type-graphql';
import { resolverClasses } from '../resolvers';

/** Wiring of a schema that serves requests; printing the SDL needs none. */
export interface SchemaWiring {
  /** The resolver instances (see createResolvers). */
  resolvers: readonly object[];
}

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

/** The executable schema, from the classes of src/schema and src/resolvers. */
export function buildGraphQLSchema({ resolvers }: SchemaWiring = { resolvers: [] }): GraphQLSchema {
  const byClass = new Map<unknown, object>(resolvers.map((r) => [r.constructor, r]));
  const schema = buildSchemaSync({
    resolvers: [...resolverClasses],
    validate: false,
    pubSub: noTopics,
    container: {
      get: (someClass: { name: string }) => {
        const resolver = byClass.get(someClass);
        if (!resolver) throw new Error(`Resolver ${someClass.name} is not wired`);
        return resolver;
      },
    },
  });
  return describeRootTypes(schema);
}

/** The SDL committed as schema.graphql, in declaration order. */
export const printSDL = (schema: GraphQLSchema): string => `${printSchema(schema)}\n`;
