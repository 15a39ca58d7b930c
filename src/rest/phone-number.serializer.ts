import type { PhoneNumber } from '../entities';
import { iso } from './serialize';

export function serializePhoneNumber(p: PhoneNumber) {
  return {
    id: p.id,
    company_id: p.company.id,
    phone_number: p.phoneNumber,
    country_code: p.countryCode,
    label: p.label,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}
