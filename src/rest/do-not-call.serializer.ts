import { z } from 'zod';
import type { DoNotCallNumber } from '../entities';
import { iso, shape } from './serialize';

/** A number on the company's do-not-call list. */
export const doNotCallShape = z
  .strictObject({
    id: shape.id(),
    phone_number: z.string(),
    reason: z.string().nullable(),
    created_at: shape.timestamp(),
  })
  .meta({ id: 'DoNotCallNumber' });

export const doNotCallPageShape = z.strictObject({ items: z.array(doNotCallShape), next_cursor: z.string().nullable() });

export function serializeDoNotCallNumber(n: DoNotCallNumber): z.output<typeof doNotCallShape> {
  return {
    id: n.id,
    phone_number: n.phoneNumber,
    reason: n.reason,
    created_at: iso(n.createdAt),
  };
}
