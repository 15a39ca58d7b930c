import { z } from 'zod';
import { type Contract, contractOfView, isInstant, surfaceFields, type ViewOf } from '../services/shared/contract';
import type { StoredView } from '../db/statements';
import { snakeName } from '../services/shared/naming';
import { iso, shape } from './serialize';

/** How REST shows one field of a view: its documented schema, its value from the view's, and its JSON from the stored view's (`StoredView`). */
interface RestField {
  schema: z.ZodType;
  write: (value: unknown) => unknown;
  json: (value: unknown) => string | undefined;
}

const asIs = (value: unknown): unknown => value;
const toJson = (value: unknown): string | undefined => JSON.stringify(value);

/**
 * Instants are ISO 8601 strings on REST; a list of another contract's views (a flow's
 * steps) is a list of that contract's REST shape; every other field is written as the view
 * holds it, with its schema as declared (so what the legacy shape documents in /openapi.json
 * stays).
 */
function restField(schema: z.ZodType): RestField {
  // A stored view holds instants as the ISO text REST writes.
  if (isInstant(schema)) return { schema: schema instanceof z.ZodNullable ? shape.timestamp().nullable() : shape.timestamp(), write: (value) => iso(value as Date | null), json: toJson };
  const nested = schema instanceof z.ZodArray ? contractOfView(schema.element as z.ZodType) : undefined;
  if (nested) {
    const { schema: element, serialize } = restShape(nested);
    const write = (value: unknown) => (value as ViewOf<typeof nested>[]).map(serialize);
    return { schema: z.array(element), write, json: (value) => toJson(write(value)) };
  }
  return { schema, write: asIs, json: toJson };
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
  const members = fields.map(([key, name, f]) => ({ key, prefix: `${JSON.stringify(name)}:`, json: f.json }));
  /**
   * The JSON text `serialize` would give, written straight from a stored view (one pass, no
   * intermediate object); a field without a value is left out, as JSON.stringify leaves it.
   */
  const json = (stored: StoredView<ViewOf<Contract<S>>>): string => {
    const record = stored as Record<string, unknown>;
    let out = '';
    for (const m of members) {
      const value = m.json(record[m.key]);
      if (value !== undefined) out += `${out ? ',' : ''}${m.prefix}${value}`;
    }
    return `{${out}}`;
  };
  return { schema, serialize, names, json };
}
