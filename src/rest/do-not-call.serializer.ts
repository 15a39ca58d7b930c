import type { DoNotCallNumber } from '../entities';
import { iso } from './serialize';

export function serializeDoNotCallNumber(n: DoNotCallNumber) {
  return {
    id: n.id,
    phone_number: n.phoneNumber,
    reason: n.reason,
    created_at: iso(n.createdAt),
  };
}
