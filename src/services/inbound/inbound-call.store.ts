import type { EntityManager } from '@mikro-orm/postgresql';

/** A contact in its stored (snake_case) shape, as campaign variable mappings read it. */
export type ContactRow = Record<string, unknown> & { id: string };

/**
 * The company's contact with this E.164 number (numbers are stored in E.164, so equal
 * strings are equal numbers); the newest when several share it, none when deleted.
 */
export async function contactWithNumber(em: EntityManager, companyId: string, e164: string): Promise<ContactRow | null> {
  const [row]: { contact: ContactRow }[] = await em.execute(
    `SELECT to_jsonb(ct) AS contact FROM contacts ct
     WHERE ct.company_id = ? AND ct.phone_number = ? AND ct.deleted_at IS NULL
     ORDER BY ct.created_at DESC, ct.id DESC LIMIT 1`,
    [companyId, e164],
  );
  return row?.contact ?? null;
}
