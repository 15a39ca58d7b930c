import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema, buildSchema, getNamedType, isInterfaceType, isObjectType, isRequiredArgument } from 'graphql';
import { PROJECT_ROOT } from '../../../src/project';

/**
 * Compares `value`, pretty-printed, with the committed file `test/api/snapshots/<name>`, byte for
 * byte. With `UPDATE_SNAPSHOTS=1` it rewrites the file instead: a deliberate change of the
 * REST bytes, the OpenAPI document or the GraphQL answers is a reviewed diff of that file.
 */
export function expectSnapshot(name: string, value: unknown): void {
  const file = path.join(PROJECT_ROOT, 'test/api/snapshots', name);
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(file, text);
  else expect(text).toBe(readFileSync(file, 'utf8'));
}

/** Record ids, and the simulated provider's call ids. */
const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|SIM[0-9a-f]{32}/g;
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;

/** Fields measured or stamped at run time: a flow step's request and response, a turn's latency. */
const MEASURED = new Set(['latency', 'duration_ms', 'durationMs', 'webhook-timestamp', 'date']);

/**
 * Replaces what differs from run to run by stable placeholders: ids by the name they were
 * given (`name`) or by their order of first appearance, timestamps, measured values, the
 * `volatile` patterns (secrets, ports) and pagination cursors (opaque encodings of a
 * timestamp and an id).
 */
export class Normalizer {
  private readonly names = new Map<string, string>();

  constructor(private readonly volatile: [RegExp, string][] = []) {}

  name(id: string, label: string): void {
    this.names.set(id, `<${label}>`);
  }

  apply(value: unknown, key = ''): unknown {
    if (Array.isArray(value)) return value.map((v) => this.apply(v));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.apply(v, k)]));
    if (MEASURED.has(key)) return '<measured>';
    if (typeof value !== 'string') return value;
    if (/cursor$/i.test(key) && value !== '') return '<cursor>';
    let out = value.replace(ID, (id) => this.idName(id)).replace(TIMESTAMP, '<timestamp>');
    for (const [pattern, placeholder] of this.volatile) out = out.replace(pattern, placeholder);
    return out;
  }

  private idName(id: string): string {
    if (!this.names.has(id)) this.names.set(id, `<id ${this.names.size + 1}>`);
    return this.names.get(id)!;
  }
}

const schema: GraphQLSchema = buildSchema(readFileSync(path.join(PROJECT_ROOT, 'schema.graphql'), 'utf8'));

const implementsNode = (type: GraphQLNamedType) => (isObjectType(type) || isInterfaceType(type)) && type.getInterfaces().some((i) => i.name === 'Node');

/**
 * Every field of `typeName` that needs no argument, from the committed SDL, so a field added
 * to a type is in the snapshot without editing a query. Records of other aggregates
 * reached through a field are selected by id only (their own queries show them whole); the
 * nodes of a connection are selected whole. `omit` leaves fields out (a list's pages of
 * pages would pass the complexity limit).
 */
export function selection(typeName: string, whole = true, omit: string[] = []): string {
  const type = schema.getType(typeName) as GraphQLObjectType;
  if (!whole && implementsNode(type)) return '{ id }';
  const fields = Object.values(type.getFields())
    .filter((field) => !field.args.some(isRequiredArgument) && !omit.includes(field.name))
    .map((field) => {
      const inner = getNamedType(field.type);
      if (!isObjectType(inner) && !isInterfaceType(inner)) return field.name;
      const nodesOfPage = typeName.endsWith('Connection') || typeName.endsWith('Edge');
      return `${field.name} ${selection(inner.name, nodesOfPage)}`;
    });
  return `{ ${fields.join(' ')} }`;
}
