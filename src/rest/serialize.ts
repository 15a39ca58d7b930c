import { z } from 'zod';
import { field } from '../services/shared/contract';

/** ISO 8601 UTC, or null. */
export function iso(d: Date): string;
export function iso(d: Date | null | undefined): string | null;
export function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

/** The id behind a relation reference, or null. */
export const refId = (ref: { id: string } | null | undefined): string | null => ref?.id ?? null;

/**
 * Pieces of the response shapes. Each serializer declares the shape it returns as a zod
 * schema: the schema types the serializer, describes `data` in /openapi.json, and checks
 * real responses in the tests, so the three cannot drift apart.
 */
export const shape = {
  id: field.id,
  timestamp: () => z.iso.datetime().meta({ examples: ['2026-11-23T14:05:00.000Z'] }),
  json: field.json,
  /** E.164, as stored. */
  phone: field.phone,
};
