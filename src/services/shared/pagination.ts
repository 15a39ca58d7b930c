import { type EntityClass, type FilterQuery, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from './errors';
import { storableInstant } from './common.input';

export interface Page<T> {
  items: T[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  totalCount?: number;
}

interface Keyed {
  id: string;
  createdAt: Date;
}

/** The row a cursor names; an invalid one is a ValidationError on `cursor`. */
export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(at);
    // A forged cursor's instant goes into SQL: outside what PostgreSQL stores, it would fail there.
    if (typeof id !== 'string' || !storableInstant(createdAt)) throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw ValidationError.of('cursor', 'Invalid cursor');
  }
}

/** The cursor naming `row`, whose `createdAt` is a Date or a stored view's ISO text (`StoredView`: UTC, milliseconds, as `toISOString` writes it). */
export const encodeCursor = (row: { id: string; createdAt: Date | string }): string =>
  Buffer.from(JSON.stringify([typeof row.createdAt === 'string' ? row.createdAt : row.createdAt.toISOString(), row.id])).toString('base64url');

/**
 * Rows after the cursor in newest-first order on (created_at, id), as one row comparison:
 * PostgreSQL starts an index on (…, created_at, id) at the cursor's row, where the same
 * condition as `created_at < $1 OR (created_at = $1 AND id < $2)` is a filter on every row
 * newer than the cursor, read and dropped (a page as deep as the rows before it: the whole
 * legacy contact listing was quadratic).
 */
const after = <T extends Keyed>(cursor: string | undefined): FilterQuery<T> => {
  if (!cursor) return {};
  const { createdAt, id } = decodeCursor(cursor);
  return { [raw((alias: string) => `(${alias}.created_at, ${alias}.id) < (?, ?)`, [createdAt, id])]: [] } as FilterQuery<T>;
};

const NEWEST_FIRST = { createdAt: 'desc', id: 'desc' } as const;

/**
 * Newest-first keyset pagination on (created_at, id): stable under concurrent inserts and
 * as fast on page 1,000 as on page 1. `cursor` is opaque to callers.
 */
export async function newestFirst<T extends Keyed>(em: EntityManager, entity: EntityClass<T>, where: FilterQuery<T>, { limit, cursor }: { limit: number; cursor?: string }): Promise<Page<T>> {
  const rows = await em.find(entity, { $and: [where, after<T>(cursor)] } as FilterQuery<T>, { orderBy: NEWEST_FIRST as never, limit: limit + 1 });
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]) : null };
}

/** A child entity paginated per parent: calls per campaign, executions per flow. */
export interface PerParent<T> {
  /** The child's relation to its parent, e.g. `campaign`. */
  parent: keyof T & string;
  parentIds: readonly string[];
  /** Further conditions on the children (tenancy, soft delete). */
  where: FilterQuery<T>;
}

/** The parent id of a child row as the ORM maps it (the relation's reference). */
const parentOf = <T>(child: T, parent: keyof T): string => (child[parent] as { id: string }).id;

/**
 * Newest-first keyset pages of children for many parents in one query: each parent's page
 * is a LATERAL subquery (limited on its own, served by its (parent, created_at) index) over
 * the parent ids. The subquery is the ORM's query builder, so table and column names come
 * from the entity's metadata; the lateral join around it is knex's (MikroORM's builder has
 * none). The same `cursor` applies to every parent; parents without children get empty pages.
 */
export async function newestFirstPerParent<T extends Keyed>(
  em: EntityManager,
  entity: EntityClass<T>,
  { parent, parentIds, where }: PerParent<T>,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<Map<string, Page<T>>> {
  const pages = new Map<string, Page<T>>(parentIds.map((id) => [id, { items: [], nextCursor: null }]));
  if (parentIds.length === 0) return pages;
  // raw() answers any: the parent's id column, in the lateral join below.
  const parentColumn: unknown = raw('p.id');
  const children = em
    .createQueryBuilder(entity)
    .select('*')
    .where({ $and: [where, { [parent]: parentColumn }, after<T>(cursor)] } as FilterQuery<T>)
    .orderBy(NEWEST_FIRST)
    .limit(limit + 1);
  const knex = em.getKnex();
  const rows = await em.execute(knex.raw('select c.* from unnest(array[?]::uuid[]) as p(id) cross join lateral (?) as c', [[...parentIds], children.getKnexQuery()]));
  for (const row of rows) {
    const child = em.map(entity, row as never);
    const page = pages.get(parentOf(child, parent))!;
    if (page.items.length < limit) page.items.push(child);
    else page.nextCursor = encodeCursor(page.items[page.items.length - 1]);
  }
  return pages;
}

/** How many children each parent has, in one query; parents without children count 0. */
export async function countPerParent<T extends object>(em: EntityManager, entity: EntityClass<T>, { parent, parentIds, where }: PerParent<T>): Promise<Map<string, number>> {
  const counts = new Map<string, number>(parentIds.map((id) => [id, 0]));
  if (parentIds.length === 0) return counts;
  const rows: Record<string, unknown>[] = await em
    .createQueryBuilder(entity)
    .select([parent, raw('count(*)::int as n')] as never)
    .where({ $and: [where, { [parent]: { $in: [...parentIds] } }] } as FilterQuery<T>)
    .groupBy(parent as never)
    .execute('all');
  for (const row of rows) counts.set(row[parent] as string, row.n as number);
  return counts;
}
