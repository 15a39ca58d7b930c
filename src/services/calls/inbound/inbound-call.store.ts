import type { EntityManager } from '@mikro-orm/postgresql';
import { Contact } from '../../../entities';

/**
 * The company's contact with this E.164 number (numbers are stored in E.164, so equal
 * strings are equal numbers); the newest when several share it, none when deleted. The
 * contact comes as an entity of `em` (mapped from its row).
 */
export async function contactWithNumber(em: EntityManager, companyId: string, e164: string): Promise<Contact | null> {
  const [row]: { contact: Record<string, unknown> }[] = await em.execute(
    `SELECT to_jsonb(ct) AS contact FROM contacts ct
     WHERE ct.company_id = ? AND ct.phone_number = ? AND ct.deleted_at IS NULL
     ORDER BY ct.created_at DESC, ct.id DESC LIMIT 1`,
    [companyId, e164],
  );
  return row ? em.map(Contact, row.contact) : null;
}
