import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The live (not revoked) API key whose hash is `hash`: its id and company, without the ORM.
 * The key names its company only once found: a lookup across companies by nature, named
 * (docs/scaling.md).
 */
export async function liveApiKey(em: EntityManager, hash: string): Promise<{ id: string; companyId: string } | null> {
  const [key]: { id: string; company_id: string }[] = await em.execute('/* auth:api-key */ SELECT id, company_id FROM api_keys WHERE hash = ? AND revoked_at IS NULL LIMIT 1', [hash]);
  return key ? { id: key.id, companyId: key.company_id } : null;
}

/** Whether company `id` exists (a JWT's `company_id`). */
export async function companyExists(em: EntityManager, id: string): Promise<boolean> {
  return (await em.execute('SELECT 1 FROM companies WHERE id = ? LIMIT 1', [id])).length > 0;
}
