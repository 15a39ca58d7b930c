import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Lists numbers on the company's do-not-call list in one statement; a number already listed
 * stays as it was (its first reason and date). One JSON parameter rather than one bind per
 * value: 10,000 numbers stay one short statement.
 */
export async function insertNumbers(em: EntityManager, companyId: string, numbers: readonly string[], reason: string | null, now: Date): Promise<void> {
  const rows = numbers.map((phone_number) => ({ id: randomUUID(), phone_number }));
  await em.execute(
    `INSERT INTO do_not_call_numbers (id, created_at, updated_at, company_id, phone_number, reason)
     SELECT r.id, ?, ?, ?, r.phone_number, ? FROM jsonb_to_recordset(?::jsonb) AS r(id uuid, phone_number varchar(20))
     ON CONFLICT (company_id, phone_number) DO NOTHING`,
    [now, now, companyId, reason, JSON.stringify(rows)],
  );
}
