import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from './errors';

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
    if (typeof id !== 'string' || Number.isNaN(createdAt.getTime())) throw new Error('bad cursor');
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
