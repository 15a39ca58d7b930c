import { z } from 'zod';
import { type Contract, surfaceFields, type ViewOf } from '../services/contract';
import { iso, shape } from './serialize';

const snake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Instants are ISO 8601 strings on REST; every other field is written as the view holds it,
 * with its schema as declared (so what the legacy shape documents in /openapi.json stays).
 */
function restField(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodNullable && schema.unwrap() instanceof z.ZodDate) return shape.timestamp().nullable();
  return schema instanceof z.ZodDate ? shape.timestamp() : schema;
}

/** REST names of the contract's fields, in REST order: [view key, REST key, REST schema]. */
function restFields<S extends z.ZodRawShape>(contract: Contract<S>): [string, string, z.ZodType][] {
  const rename: Record<string, string | undefined> = contract.rest?.rename ?? {};
  return surfaceFields(contract, 'rest').map(([key, schema]) => [key, rename[key] ?? snake(key), restField(schema)]);
}

/**
 * The documented REST shape of a contract's view, and its serializer: snake_case names
 * (except the contract's renames), in the contract's REST order, instants as ISO strings.
 * The shape describes `data` in /openapi.json and checks real answers in the tests.
 */
export function restShape<S extends z.ZodRawShape>(contract: Contract<S>) {
  const fields = restFields(contract);
  const schema = z.strictObject(Object.fromEntries(fields.map(([, name, s]) => [name, s]))).meta({ id: contract.name });
  const serialize = (view: ViewOf<Contract<S>>): Record<string, unknown> => {
    const record = view as Record<string, unknown>;
    return Object.fromEntries(fields.map(([key, name]) => [name, record[key] instanceof Date ? iso(record[key]) : record[key]]));
  };
  /** The REST name of each view field REST shows. */
  const names = Object.fromEntries(fields.map(([key, name]) => [key, name]));
  return { schema, serialize, names };
}
