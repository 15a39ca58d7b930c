import { type GraphQLSchema, printSchema } from 'graphql';
import { buildSchemaSync, type PubSub } from 'type-graphql';
import { resolverClasses } from '../resolvers';

/** Wiring of a schema that serves requests; printing the SDL needs none. */
export interface SchemaWiring {
  /** The resolver instances (see createResolvers). */
  resolvers: readonly object[];
  /** Where subscriptions listen (see busPubSub). */
  pubSub: PubSub;
}

const unwired: PubSub = {
  publish: () => undefined,
  subscribe: () => {
    throw new Error('This schema only prints its SDL');
  },
};

/** The executable schema, from the classes of src/schema and src/resolvers. */
export function buildGraphQLSchema({ resolvers, pubSub }: SchemaWiring = { resolvers: [], pubSub: unwired }): GraphQLSchema {
  const byClass = new Map<unknown, object>(resolvers.map((r) => [r.constructor, r]));
  return buildSchemaSync({
    resolvers: [...resolverClasses],
    validate: false,
    pubSub,
    container: {
      get: (someClass: { name: string }) => {
        const resolver = byClass.get(someClass);
        if (!resolver) throw new Error(`Resolver ${someClass.name} is not wired`);
        return resolver;
      },
    },
  });
}

/** The SDL committed as schema.graphql, in declaration order. */
export const printSDL = (schema: GraphQLSchema): string => `${printSchema(schema)}\n`;
