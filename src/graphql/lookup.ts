import { NotFoundError } from '../services/shared/errors';

/**
 * A lookup by id answers null for an id that names nothing the caller may see (unknown, or
 * another company's: the same answer, as on REST), so that one missing record does not null
 * its sibling fields. Every other failure (a malformed id, an outage) stays an error.
 */
export async function foundOrNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}
