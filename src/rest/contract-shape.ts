import { z } from 'zod';
import { type Contract, contractOfView, surfaceFields, type ViewOf } from '../services/contract';
import { snakeName } from '../services/naming';
import { iso, shape } from './serialize';

/** How REST shows one field of a view: its documented schema, and its value from the view's. */
interface RestField {
  schema: z.ZodType;
  write: (value: unknown) => unknown;
}

const asIs = (value: unknown): unknown => value;

/**
 * Instants are ISO 8601 strings on REST; a list of another contract's views (a flow's
 * steps) is a list of that contract's REST shape; every other field is written as the view
 * holds it, with its schema as declared (so what the legacy shape documents in /openapi.json
 * stays).
 */
function restField(schema: z.ZodType): RestField {
  if (schema instanceof z.ZodNullable && schema.unwrap() instanceof z.ZodDate) return { schema: shape.timestamp().nullable(), write: (value) => iso(value as Date | null) };
  if (schema instanceof z.ZodDate) return { schema: shape.timestamp(), write: (value) => iso(value as Date) };
  const nested = schema instanceof z.ZodArray ? contractOfView(schema.element as z.ZodType) : undefined;
  if (nested) {
    const { schema: element, serialize } = restShape(nested);
    return { schema: z.array(element), write: (value) => (value as ViewOf<typeof nested>[]).map(serialize) };
  }
  return { schema, write: asIs };
}

/** REST names of the contract's fields, in REST order: [view key, REST key, REST field]. */
function restFields<S extends z.ZodRawShape>(contract: Contract<S>): [string, string, RestField][] {
  const rename: Record<string, string | undefined> = contract.rest?.rename ?? {};
  return surfaceFields(contract, 'rest').map(([key, schema]) => [key, rename[key] ?? snakeName(key), restField(schema)]);
}

/** Each contract's REST shape, built once: its schema is registered under the contract's name. */
const shapes = new WeakMap<object, object>();

/**
 * The documented REST shape of a contract's view, and its serializer: snake_case names
 * (except the contract's renames), in the contract's REST order, instants as ISO strings.
 * The shape describes `data` in /openapi.json and checks real answers in the tests.
 */
export function restShape<S extends z.ZodRawShape>(contract: Contract<S>) {
  const known = shapes.get(contract);
  if (known) return known as ReturnType<typeof buildRestShape<S>>;
  const built = buildRestShape(contract);
  shapes.set(contract, built);
  return built;
}

function buildRestShape<S extends z.ZodRawShape>(contract: Contract<S>) {
  const fields = restFields(contract);
  const schema = z.strictObject(Object.fromEntries(fields.map(([, name, f]) => [name, f.schema]))).meta({ id: contract.name });
  const serialize = (view: ViewOf<Contract<S>>): Record<string, unknown> => {
    const record = view as Record<string, unknown>;
    return Object.fromEntries(fields.map(([key, name, f]) => [name, f.write(record[key])]));
  };
  /** The REST name of each view field REST shows. */
  const names = Object.fromEntries(fields.map(([key, name]) => [key, name]));
  return { schema, serialize, names };
}
