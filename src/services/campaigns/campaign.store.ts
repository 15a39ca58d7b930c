import type { EntityManager } from '@mikro-orm/postgresql';
import { Campaign } from '../../entities';
import { type Plain, selectPlain } from '../plain.store';

/** A campaign's stored values, as the serializer reads them (an entity is one too). */
export type CampaignRecord = Plain<Campaign>;

/** One campaign of the company, not soft-deleted, without the ORM (the by-id read). */
export async function campaignById(em: EntityManager, companyId: string, id: string): Promise<CampaignRecord | null> {
  const [found] = await selectPlain(em, Campaign, 'id = ? AND company_id = ? AND deleted_at IS NULL LIMIT 1', [id, companyId]);
  return found ?? null;
}
