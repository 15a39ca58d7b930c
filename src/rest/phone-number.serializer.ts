import { z } from 'zod';
import type { PhoneNumber } from '../entities';
import { iso, shape } from './serialize';

/** A number the company calls from (management extension). */
export const phoneNumberShape = z
  .strictObject({
    id: shape.id(),
    company_id: shape.id(),
    phone_number: shape.phone(),
    country_code: z.string(),
    label: z.string(),
    inbound_agent_id: shape.id().nullable().describe('The agent answering calls to this number; null: calls are rejected.'),
    created_at: shape.timestamp(),
    updated_at: shape.timestamp(),
  })
  .meta({ id: 'PhoneNumber' });

export function serializePhoneNumber(p: PhoneNumber): z.output<typeof phoneNumberShape> {
  return {
    id: p.id,
    company_id: p.company.id,
    phone_number: p.phoneNumber,
    country_code: p.countryCode,
    label: p.label,
    inbound_agent_id: p.inboundAgent?.id ?? null,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}
