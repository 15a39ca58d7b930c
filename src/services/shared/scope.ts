import type { EntityManager } from '@mikro-orm/postgresql';
import { uuid } from './common.input';

/** Who is calling: the company every record read or written must belong to, and the user. */
export interface Scope {
  companyId: string;
  /** JWT `sub`; null for API keys. */
  userId: string | null;
  /**
   * The credential the request came with, for per-credential rate limits: `key:<API key id>`
   * or `jwt:<company id>:<sub>`. Absent for the product's own work (jobs, seed), which is
   * not rate limited.
   */
  credential?: string;
}

/**
 * The user a record names (a flow's `created_by`, a uuid in the interface): the JWT `sub` when
 * it is a UUID, else null. Logs keep the `sub` as given (`user_id`).
 */
export function recordedUser(scope: Scope): string | null {
  const parsed = uuid().safeParse(scope.userId);
  return parsed.success ? parsed.data : null;
}

/**
 * What every service method takes first: the caller's scope and the unit of work (an
 * EntityManager fork of its own: one per HTTP request, websocket operation or job).
 */
export interface Caller {
  scope: Scope;
  em: EntityManager;
  /** The Idempotency-Key the request runs under, when it has one (`createUnderKey`). */
  idempotency?: KeyLink;
}

/** Links what a request created to its idempotency key (src/services/platform/idempotency.service.ts). */
export interface KeyLink {
  /** Writes the link on `em`, in the transaction open there that creates the records. */
  link(em: EntityManager, resourceIds: string[]): Promise<void>;
}

/**
 * A record and its company, as the engines (jobs, provider callbacks) address one: every
 * statement on a tenant table names the company too (docs/scaling.md).
 */
export interface RecordKey {
  id: string;
  companyId: string;
}
