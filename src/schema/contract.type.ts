import { GraphQLJSONObject, GraphQLLocalDate } from 'graphql-scalars';
import { type ClassType, Field, Float, ID, Int, ObjectType, type ObjectTypeOptions } from 'type-graphql';
import { z } from 'zod';
import { type Contract, descriptionOf, surfaceFields, type ViewOf } from '../services/contract';
import { closedSetOf } from './closed-set';

/** What `@Field(() => ...)` accepts: a class, scalar or enum, or a list of one. */
type GraphQLTypeOf = Extract<Parameters<typeof Field>[0], (...args: never[]) => unknown>;
type GraphQLType = ReturnType<GraphQLTypeOf>;

/** The GraphQL type of a contract field's (unwrapped) zod schema. */
function graphqlType(schema: z.ZodType): GraphQLType {
  if (schema instanceof z.ZodArray) return [graphqlType(schema.element as z.ZodType)];
  if (schema instanceof z.ZodGUID) return ID;
  if (schema instanceof z.ZodISODate) return GraphQLLocalDate;
  if (schema instanceof z.ZodString || schema instanceof z.ZodStringFormat) return String;
  if (schema instanceof z.ZodNumber) return schema.isInt ? Int : Float;
  if (schema instanceof z.ZodBoolean) return Boolean;
  if (schema instanceof z.ZodDate) return Date;
  if (schema instanceof z.ZodEnum) return closedSetOf(schema.options as string[]);
  if (schema instanceof z.ZodRecord) return GraphQLJSONObject;
  throw new Error(`A contract field of type ${schema.constructor.name} has no GraphQL type yet`);
}

/**
 * The GraphQL object type of a contract's view, built at start-up: a class with
 * TypeGraphQL's `@Field` applied to each field of the view (in the contract's GraphQL order,
 * with its description and nullability) and `@ObjectType` to the class. Resolvers return
 * views as they are; fields the GraphQL surface omits are not exposed. Field resolvers
 * (`@Resolver(() => CampaignType)`) add related records after these fields.
 */
export function contractObjectType<S extends z.ZodRawShape>(
  contract: Contract<S>,
  options: { description: string; implements?: ObjectTypeOptions['implements'] },
): ClassType<ViewOf<Contract<S>>> {
  const type = class {};
  Object.defineProperty(type, 'name', { value: `${contract.name}Type` });
  for (const [key, schema] of surfaceFields(contract, 'graphql')) {
    const nullable = schema instanceof z.ZodNullable;
    const inner = (nullable ? schema.unwrap() : schema) as z.ZodType;
    const typeOf: GraphQLTypeOf = () => graphqlType(inner);
    Field(typeOf, { nullable, description: descriptionOf(schema) })(type.prototype, key);
  }
  ObjectType(contract.name, { simpleResolvers: true, ...options })(type);
  return type as ClassType<ViewOf<Contract<S>>>;
}
