import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { NotFoundError } from './errors';
import { uuid } from './common.input';
import { parseInput } from './validation';

/** A record id in a path: also what /openapi.json says of `{id}` parameters. */
export const idInput = z.object({ id: uuid() });

/** Validates a path id; a malformed one is a validation error on field `id`. */
export const parseId = (id: unknown): string => parseInput(idInput, { id }).id;

/**
 * Loads one record of the caller's company by id. Missing, soft-deleted and foreign
 * records all answer NotFoundError, so that no company learns of another's records.
 */
export async function findOwned<T extends { id: string }>(em: EntityManager, entity: EntityClass<T>, name: string, where: FilterQuery<T>, populate: readonly string[] = []): Promise<T> {
  const found = await em.findOne(entity, where, { populate: populate as never });
  if (!found) throw new NotFoundError(name);
  return found;
}
