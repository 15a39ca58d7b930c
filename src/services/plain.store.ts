import { type EntityClass, type EntityMetadata, type EntityProperty, ReferenceKind, type Ref } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * An entity's stored values as a plain object, the way a serializer reads them: scalar
 * properties as the entity holds them, many-to-one references as `{ id }`. An entity
 * satisfies it, so one serializer serves entities and the hot reads of the stores.
 */
export type Plain<T> = {
  [K in keyof T as K extends symbol ? never : T[K] extends (...args: never[]) => unknown ? never : K]: T[K] extends Ref<infer _>
    ? { id: string }
    : T[K] extends Ref<infer _> | null
      ? { id: string } | null
      : T[K];
};

/** What one column of the select list turns into: the property, and how its value is read. */
interface Column {
  name: string;
  sql: string;
  read: (value: unknown) => unknown;
}

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const selects = new WeakMap<EntityMetadata, { sql: string; columns: Column[] }>();

function column(prop: EntityProperty, quote: (id: string) => string): Column {
  const field = quote(prop.fieldNames[0]!);
  if (prop.kind === ReferenceKind.MANY_TO_ONE) return { name: prop.name, sql: field, read: (v) => (v === null ? null : { id: v }) };
  // Timestamps as ISO text, truncated to milliseconds as the ORM's Date would be.
  if (prop.runtimeType === 'Date') return { name: prop.name, sql: `to_char(${field} AT TIME ZONE 'UTC', ${ISO_UTC})`, read: (v) => (v === null ? null : new Date(v as string)) };
  return { name: prop.name, sql: field, read: (v) => v };
}

/** The select list of an entity's stored columns, built once per entity from its metadata. */
function selectOf(em: EntityManager, meta: EntityMetadata): { sql: string; columns: Column[] } {
  let select = selects.get(meta);
  if (!select) {
    const quote = (id: string) => em.getPlatform().quoteIdentifier(id);
    const columns = meta.props
      .filter((p) => p.persist !== false && !p.formula && (p.kind === ReferenceKind.SCALAR || p.kind === ReferenceKind.MANY_TO_ONE))
      .map((p) => column(p, quote));
    select = { sql: columns.map((c, i) => `${c.sql} AS c${i}`).join(', '), columns };
    selects.set(meta, select);
  }
  return select;
}

/**
 * Rows of `entity`'s table matching `where` (SQL with `?` placeholders), as plain records:
 * one statement, no entity, no identity map, no unit of work. For hot reads whose result
 * goes straight to a serializer.
 */
export async function selectPlain<T extends object>(em: EntityManager, entity: EntityClass<T>, where: string, params: unknown[]): Promise<Plain<T>[]> {
  const meta = em.getMetadata().get<T>(entity.name);
  const { sql, columns } = selectOf(em, meta);
  const rows: Record<string, unknown>[] = await em.execute(`SELECT ${sql} FROM ${em.getPlatform().quoteIdentifier(meta.tableName)} WHERE ${where}`, params);
  return rows.map((row) => {
    const record: Record<string, unknown> = {};
    columns.forEach((c, i) => (record[c.name] = c.read(row[`c${i}`])));
    return record as Plain<T>;
  });
}
