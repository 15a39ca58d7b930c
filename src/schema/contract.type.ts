import { GraphQLJSON, GraphQLJSONObject, GraphQLLocalDate } from 'graphql-scalars';
import { type ClassType, Field, Float, ID, InputType, Int, ObjectType, type ObjectTypeOptions } from 'type-graphql';
import { z } from 'zod';
import { arranged, type Contract, descriptionOf, objectDocs, type SurfaceOverride, surfaceFields, type ViewOf } from '../services/contract';
import { closedSetOf } from './closed-set';

/** What `@Field(() => ...)` accepts: a class, scalar or enum, or a list of one. */
type GraphQLTypeOf = Extract<Parameters<typeof Field>[0], (...args: never[]) => unknown>;
type GraphQLType = ReturnType<GraphQLTypeOf>;

/**
 * The GraphQL type of a contract field's zod schema, optional and nullable wrappers aside:
 * an input's transform is typed by what it accepts, a union by its first option (GraphQL
 * inputs have no unions), an enum by its registered GraphQL enum unless `enumsAsText`.
 */
function graphqlType(schema: z.ZodType, enumsAsText = false): GraphQLType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return graphqlType(schema.unwrap() as z.ZodType, enumsAsText);
  if (schema instanceof z.ZodPipe) return graphqlType(schema.in as z.ZodType, enumsAsText);
  if (schema instanceof z.ZodUnion) return graphqlType(schema.options[0] as z.ZodType, enumsAsText);
  if (schema instanceof z.ZodArray) return [graphqlType(schema.element as z.ZodType, enumsAsText)];
  if (schema instanceof z.ZodEnum && enumsAsText) return String;
  if (schema instanceof z.ZodGUID) return ID;
  if (schema instanceof z.ZodISODate) return GraphQLLocalDate;
  if (schema instanceof z.ZodString || schema instanceof z.ZodStringFormat) return String;
  if (schema instanceof z.ZodNumber) return schema.isInt ? Int : Float;
  if (schema instanceof z.ZodBoolean) return Boolean;
  if (schema instanceof z.ZodDate) return Date;
  if (schema instanceof z.ZodEnum) return closedSetOf(schema.options as string[]);
  if (schema instanceof z.ZodRecord) return GraphQLJSONObject;
  if (schema instanceof z.ZodObject) return nestedObjectType(schema);
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
  return objectType(contract.name, surfaceFields(contract, 'graphql'), options, contract.graphql?.anyJson) as ClassType<ViewOf<Contract<S>>>;
}

function objectType(name: string, fields: [string, z.ZodType][], options: ObjectTypeOptions, anyJson: readonly string[] = []): ClassType<object> {
  const type = class {};
  Object.defineProperty(type, 'name', { value: `${name}Type` });
  for (const [key, schema] of fields) {
    declareNested(schema);
    const typeOf: GraphQLTypeOf = () => (anyJson.includes(key) ? GraphQLJSON : graphqlType(schema));
    Field(typeOf, { nullable: schema instanceof z.ZodNullable, description: descriptionOf(schema) })(type.prototype, key);
  }
  ObjectType(name, { simpleResolvers: true, ...options })(type);
  return type;
}

/**
 * Declares the types of a field's nested objects with the type that holds them, before
 * the schema is built (enums are looked up later, when the schema is built: they are
 * registered beside their entities' closed sets).
 */
function declareNested(schema: z.ZodType): void {
  if (schema instanceof z.ZodNullable) declareNested(schema.unwrap() as z.ZodType);
  else if (schema instanceof z.ZodArray) declareNested(schema.element as z.ZodType);
  else if (schema instanceof z.ZodObject) nestedObjectType(schema);
}

/** The GraphQL types of nested objects (`DynamicVariable`), each built once. */
const nestedTypes = new Map<z.ZodObject, ClassType<object>>();

function nestedObjectType(schema: z.ZodObject): ClassType<object> {
  const known = nestedTypes.get(schema);
  if (known) return known;
  const doc = objectDocs.get(schema);
  if (!doc) throw new Error('A nested object of a contract has no GraphQL name: declare it with namedObject()');
  const type = objectType(doc.name, Object.entries(schema.shape) as [string, z.ZodType][], { description: doc.description });
  nestedTypes.set(schema, type);
  return type;
}

const camel = (key: string): string => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** How a GraphQL input departs from the write schema it derives from. */
export interface InputOverride extends SurfaceOverride<string> {
  /** Fields the input requires (the rest may be left out or null). */
  required?: readonly string[];
  /** Enum fields the input types as plain text (the service validates the values). */
  asText?: readonly string[];
}

/**
 * The GraphQL input type of a service's write schema (snake_case, as REST sends it), built
 * at start-up: each field camelCased, with its description, in the schema's order as
 * `override` arranges it. Resolvers hand what arrives to the service through
 * `toServiceInput`, which names the fields back, so the service validates both surfaces
 * with the same schema and errors name the same fields.
 */
export function contractInputType(name: string, description: string, fields: z.ZodRawShape, override: InputOverride = {}): ClassType<object> {
  const type = class {};
  Object.defineProperty(type, 'name', { value: name });
  for (const [key, schema] of arranged(fields, override)) {
    const typeOf: GraphQLTypeOf = () => graphqlType(schema, override.asText?.includes(key));
    Field(typeOf, { nullable: !override.required?.includes(key), description: descriptionOf(schema) })(type.prototype, camel(key));
  }
  InputType(name, { description })(type);
  return type;
}
