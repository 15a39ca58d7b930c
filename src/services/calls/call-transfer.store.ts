import type { EntityManager } from '@mikro-orm/postgresql';
import { Call } from '../../entities';
import type { CallTransfer, TransferStatus } from '../../entities/call.entity';
import type { RecordKey } from '../shared/scope';

/**
 * Records a call's transfer, replacing the one before (a call shows its latest), with what a
 * warm transfer's person is told first (`summary`; null for a cold one).
 */
export async function startTransfer(em: EntityManager, call: RecordKey, transfer: CallTransfer, summary: string | null): Promise<void> {
  await em.nativeUpdate(Call, { id: call.id, company: call.companyId }, { transfer, transferSummary: summary });
}

/**
 * The result of the call's transfer, stored once: only a transfer still `dialing` takes it.
 * Answers the transfer as it now is, or null when there was none dialling (a callback posted
 * twice).
 */
export async function endTransfer(em: EntityManager, call: RecordKey, status: Exclude<TransferStatus, 'dialing'>): Promise<CallTransfer | null> {
  const rows = await em.execute<{ transfer: CallTransfer }[]>(
    `UPDATE calls SET transfer = jsonb_set(transfer, '{status}', to_jsonb(?::text))
     WHERE id = ? AND company_id = ? AND transfer ->> 'status' = 'dialing'
     RETURNING transfer`,
    [status, call.id, call.companyId],
  );
  return rows[0]?.transfer ?? null;
}
