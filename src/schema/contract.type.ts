import { GraphQLJSON, GraphQLJSONObject, GraphQLLocalDate } from 'graphql-scalars';
import { ArgsType, type ClassType, Field, Float, ID, InputType, Int, ObjectType, type ObjectTypeOptions } from 'type-graphql';
import { z } from 'zod';
import { arranged, type Contract, descriptionOf, type GraphQLTypeAs, objectDocs, storedKeys, type SurfaceOverride, surfaceFields, type ViewOf } from '../services/shared/contract';
import { PhoneParser } from '../services/shared/phone';
import { camelName } from '../services/shared/naming';
import { closedSetOf } from './closed-set';

/** What `@Field(() => ...)` accepts: a class, scalar or enum, or a list of one. */
type GraphQLTypeOf = Extract<Parameters<typeof Field>[0], (...args: never[]) => unknown>;
type GraphQLType = ReturnType<GraphQLTypeOf>;

/** How a field's zod schema is read: on an input (nested objects as input types), enums as text or not. */
interface Reading {
  input?: boolean;
  enumsAsText?: boolean;
}

/**
 * The GraphQL type of a contract field's zod schema, optional and nullable wrappers aside:
 * an input's transform is typed by what it accepts, a union by its first option (GraphQL
 * inputs have no unions), an enum by its registered GraphQL enum unless `enumsAsText`, any
 * value (a step's body) as any JSON.
 */
function graphqlType(schema: z.ZodType, reading: Reading = {}): GraphQLType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return graphqlType(schema.unwrap() as z.ZodType, reading);
  if (schema instanceof z.ZodPipe) return graphqlType(schema.in as z.ZodType, reading);
  if (schema instanceof z.ZodUnion) return graphqlType(schema.options[0] as z.ZodType, reading);
  if (schema instanceof z.ZodArray) return [graphqlType(schema.element as z.ZodType, reading)];
  if (schema instanceof z.ZodEnum && reading.enumsAsText) return String;
  if (schema instanceof z.ZodGUID) return ID;
  if (schema instanceof z.ZodISODate) return GraphQLLocalDate;
  if (schema instanceof z.ZodString || schema instanceof z.ZodStringFormat) return String;
  if (schema instanceof z.ZodNumber) return (schema.format ?? '').includes('int') ? Int : Float;
  if (schema instanceof z.ZodBoolean) return Boolean;
  if (schema instanceof z.ZodDate) return Date;
  if (schema instanceof z.ZodEnum) return closedSetOf(schema.options as string[]);
  if (schema instanceof z.ZodRecord) return GraphQLJSONObject;
  if (schema instanceof z.ZodUnknown) return GraphQLJSON;
  if (schema instanceof z.ZodObject) return nestedType(schema, reading.input === true);
  throw new Error(`A contract field of type ${schema.constructor.name} has no GraphQL type yet`);
}

/**
 * The GraphQL object type of a contract's view, built at start-up: a class with
 * TypeGraphQL's `@Field` applied to each field of the view (in the contract's GraphQL order,
 * with its description and nullability) and `@ObjectType` to the class. Resolvers return
 * views as they are; fields the GraphQL surface omits are not exposed. Field resolvers
 * (`@Resolver(() => CampaignType)`) add related records after these fields.
 */
export function contractObjectType<S extends z.ZodRawShape>(contract: Contract<S>, options: { description: string; implements?: ObjectTypeOptions['implements'] }): ClassType<ViewOf<Contract<S>>> {
  return objectType(contract.name, surfaceFields(contract, 'graphql'), options, contract.graphql?.as) as ClassType<ViewOf<Contract<S>>>;
}

const typesAs: Record<Exclude<GraphQLTypeAs, 'text'>, GraphQLType> = { anyJson: GraphQLJSON, jsonObject: GraphQLJSONObject, id: ID };

/**
 * A field may hold no value when its schema accepts null or leaves it out (the stored
 * optional keys of a nested object): GraphQL shows both as null.
 */
const mayBeEmpty = (schema: z.ZodType): boolean => schema.safeParse(null).success || schema.safeParse(undefined).success;

/**
 * The object type `name` of `fields`, each GraphQL field named in camelCase: a nested
 * object keeps the keys it is stored with (`ai_agent_id`), which REST shows as they are,
 * and GraphQL reads them under its own names (`aiAgentId`).
 */
function objectType(name: string, fields: [string, z.ZodType][], options: ObjectTypeOptions, as: Partial<Record<string, GraphQLTypeAs>> = {}): ClassType {
  const type = class {};
  Object.defineProperty(type, 'name', { value: `${name}Type` });
  for (const [key, schema] of fields) {
    const typeAs = as[key];
    if (!typeAs) declareNested(schema, false);
    const typeOf: GraphQLTypeOf = () => (typeAs && typeAs !== 'text' ? typesAs[typeAs] : graphqlType(schema, { enumsAsText: typeAs === 'text' }));
    const renamed = camelName(key) !== key ? { name: camelName(key), simple: false } : {};
    Field(typeOf, { nullable: mayBeEmpty(schema), description: descriptionOf(schema), ...renamed })(type.prototype, key);
  }
  ObjectType(name, { simpleResolvers: true, ...options })(type);
  return type;
}

/**
 * Declares the types of a field's nested objects with the type that holds them, before
 * the schema is built (enums are looked up later, when the schema is built: they are
 * registered beside their entities' closed sets).
 */
function declareNested(schema: z.ZodType, input: boolean): void {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) declareNested(schema.unwrap() as z.ZodType, input);
  else if (schema instanceof z.ZodArray) declareNested(schema.element as z.ZodType, input);
  else if (schema instanceof z.ZodObject) nestedType(schema, input);
}

/** The GraphQL types of nested objects (`DynamicVariable`, `DynamicVariableInput`), each built once. */
const nestedTypes = { object: new Map<z.ZodObject, ClassType>(), input: new Map<z.ZodObject, ClassType>() };

/** The GraphQL input type of a nested object of a write schema, for other inputs that hold it too. */
export const namedInputType = (schema: z.ZodObject): ClassType => nestedType(schema, true);

/** The GraphQL object type of a nested object of a view, for other types that hold it too. */
export const namedObjectType = (schema: z.ZodObject): ClassType => nestedType(schema, false);

function nestedType(schema: z.ZodObject, input: boolean): ClassType {
  const built = input ? nestedTypes.input : nestedTypes.object;
  const known = built.get(schema);
  if (known) return known;
  const doc = objectDocs.get(schema);
  if (!doc) throw new Error('A nested object of a contract has no GraphQL name: declare it with namedObject()');
  const fields = Object.entries(schema.shape) as [string, z.ZodType][];
  const type = input
    ? inputType(doc.name, doc.description, fields, { required: fields.filter(([, s]) => !(s instanceof z.ZodOptional || s instanceof z.ZodNullable)).map(([k]) => k), asText: doc.asText })
    : objectType(doc.name, fields, { description: doc.description });
  built.set(schema, type);
  return type;
}

/**
 * The phone parser the write schemas behind GraphQL inputs are built with here. Only their
 * shape is read (a phone number is text to GraphQL); the services parse numbers with
 * schemas built with the configured region.
 */
export const shapeOnly = new PhoneParser('US');

/** How a GraphQL input departs from the write schema it derives from. */
export interface InputOverride extends SurfaceOverride<string> {
  /** Fields the input requires (the rest may be left out or null). */
  required?: readonly string[];
  /** Enum fields the input types as plain text (the service validates the values). */
  asText?: readonly string[];
  /** Fields typed with a GraphQL type built elsewhere (a list of the call's `DynamicVariableInput`). */
  typedAs?: Record<string, GraphQLTypeOf>;
}

/**
 * The GraphQL input type of a service's write schema (snake_case, as REST sends it), built
 * at start-up: each field camelCased, with its description, in the schema's order as
 * `override` arranges it; nested objects become input types of their own (`namedObject`).
 * The service validates what arrives with the same fields under these camelCase names
 * (Campaign: `createCampaignWrite`), and errors name the same snake_case fields as REST's.
 */
export function contractInputType<T extends object>(name: string, description: string, fields: z.ZodRawShape, override: InputOverride = {}): ClassType<T> {
  return inputType(name, description, arranged(fields, override), override) as ClassType<T>;
}

function inputType(name: string, description: string, fields: [string, z.ZodType][], override: InputOverride): ClassType {
  const type = class {};
  Object.defineProperty(type, 'name', { value: name });
  declareInputFields(type, fields, override);
  InputType(name, { description })(type);
  return type;
}

/**
 * The GraphQL arguments of a list's filters, after those of `page` (its pagination): each
 * filter of the zod schema the list's REST query string documents (snake_case; `.describe()`
 * or `described()` documents it), camelCased and optional, as the service validates them.
 */
export function filterArgsType<T extends object>(name: string, page: ClassType, filters: z.ZodRawShape): ClassType<T> {
  const type = class extends page {};
  Object.defineProperty(type, 'name', { value: name });
  declareInputFields(type, Object.entries(filters) as [string, z.ZodType][], {});
  ArgsType()(type);
  return type as ClassType<T>;
}

/** `@Field` on `type` for each field of a write schema (or a query string's), under its camelCase name. */
function declareInputFields(type: ClassType, fields: [string, z.ZodType][], override: InputOverride): void {
  for (const [key, schema] of fields) {
    // An object whose keys are stored as sent is any JSON object to GraphQL (the service checks its shape: an agent's flow).
    const json = storedKeys.has(schema);
    const typedAs = override.typedAs?.[key];
    if (!json && !typedAs) declareNested(schema, true);
    const typeOf: GraphQLTypeOf = typedAs ?? (() => (json ? GraphQLJSONObject : graphqlType(schema, { input: true, enumsAsText: override.asText?.includes(key) })));
    Field(typeOf, { nullable: !override.required?.includes(key), description: descriptionOf(schema) })(type.prototype, camelName(key));
  }
}
