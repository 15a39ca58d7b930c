import { z } from 'zod';
import type { ApiKey } from '../../entities';
import { defineContract, described as d, field, type ViewOf, viewOf } from '../shared/contract';

/**
 * An API key of the company as GraphQL's `ApiKey` shows it: never the key itself (only its
 * hash is stored), except in the answer that creates it (`secret`).
 */
export const apiKeyContract = defineContract({
  name: 'ApiKey',
  view: z.object({
    id: d(field.id(), 'Unique id (UUID).'),
    prefix: d(z.string(), 'The first characters of the key (sk_ and 7 more), to recognise it.'),
    createdAt: d(z.date(), 'When the key was created.'),
    revokedAt: d(z.date().nullable(), 'When the key was revoked; null: it works.'),
    secret: d(z.string().nullable(), 'The key itself: only in the answer of createApiKey, null everywhere else (only its hash is kept).'),
  }),
});

export type ApiKeyView = ViewOf<typeof apiKeyContract>;

/** The view of a stored key; `secret` only when it was just created. */
export const toApiKeyView = (key: ApiKey, secret: string | null = null): ApiKeyView => viewOf(apiKeyContract, key, { secret: () => secret });
