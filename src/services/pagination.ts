import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from './errors';
import { storableInstant } from './input/common';

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

function decode(cursor: string): { createdAt: Date; id: string } {
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

export const encodeCursor = (row: Keyed): string =>
  Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');

/**
 * Newest-first keyset pagination on (created_at, id): stable under concurrent inserts and
 * as fast on page 1,000 as on page 1. `cursor` is opaque to callers.
 */
export async function newestFirst<T extends Keyed>(
  em: EntityManager,
  entity: EntityClass<T>,
  where: FilterQuery<T>,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<Page<T>> {
  const after = cursor ? decode(cursor) : null;
  const keyset = after
    ? { $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }] }
    : {};
  const rows = await em.find(entity, { $and: [where, keyset] } as FilterQuery<T>, {
    orderBy: { createdAt: 'desc', id: 'desc' } as never,
    limit: limit + 1,
  });
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]!) : null };
}

/** A child table paginated per parent: calls per campaign, executions per flow. */
export interface PerParent {
  /** Column naming the parent, e.g. `campaign_id`. */
  parentColumn: string;
  parentIds: readonly string[];
  /** Extra SQL conditions on the child table (tenancy, soft delete) and their parameters. */
  where: string;
  params: unknown[];
}

/**
 * Newest-first keyset pages of children for many parents in one query (a LATERAL join,
 * so each parent is limited on its own and served by its (parent, created_at) index).
 * The same `cursor` applies to every parent; parents without children get empty pages.
 */
export async function newestFirstPerParent<T extends Keyed>(
  em: EntityManager,
  entity: EntityClass<T>,
  { parentColumn, parentIds, where, params }: PerParent,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<Map<string, Page<T>>> {
  const pages = new Map<string, Page<T>>(parentIds.map((id) => [id, { items: [], nextCursor: null }]));
  if (parentIds.length === 0) return pages;
  const after = cursor ? decode(cursor) : null;
  const table = em.getMetadata().get(entity.name).tableName;
  const rows = await em.execute(
    `SELECT c.* FROM unnest(ARRAY[?]::uuid[]) AS p(id) CROSS JOIN LATERAL (
       SELECT * FROM "${table}" WHERE "${parentColumn}" = p.id AND ${where}
       ${after ? 'AND (created_at, id) < (?::timestamptz, ?::uuid)' : ''}
       ORDER BY created_at DESC, id DESC LIMIT ?
     ) c`,
    [parentIds, ...params, ...(after ? [after.createdAt, after.id] : []), limit + 1],
  );
  for (const row of rows) {
    const page = pages.get(row[parentColumn] as string)!;
    if (page.items.length < limit) page.items.push(em.map(entity, row as never));
    else page.nextCursor = encodeCursor(page.items[page.items.length - 1]!);
  }
  return pages;
}

/** How many children each parent has, in one query; parents without children count 0. */
export async function countPerParent(
  em: EntityManager,
  entity: EntityClass<unknown>,
  { parentColumn, parentIds, where, params }: PerParent,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(parentIds.map((id) => [id, 0]));
  if (parentIds.length === 0) return counts;
  const table = em.getMetadata().get(entity.name).tableName;
  const rows = await em.execute(
    `SELECT "${parentColumn}" AS parent, count(*)::int AS n FROM "${table}"
     WHERE "${parentColumn}" IN (?) AND ${where} GROUP BY "${parentColumn}"`,
    [parentIds, ...params],
  );
  for (const row of rows) counts.set(row.parent as string, row.n as number);
  return counts;
}
