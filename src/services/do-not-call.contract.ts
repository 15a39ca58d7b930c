import { z } from 'zod';
import type { DoNotCallNumber } from '../entities';
import { defineContract, described as d, field, type ViewOf, viewOf } from './contract';

/**
 * A number on the company's do-not-call list (make-call refuses it, campaigns skip it), as
 * services return it and every surface shows it: REST, /openapi.json and the GraphQL
 * `DoNotCallNumber` type.
 */
export const doNotCallContract = defineContract({
  name: 'DoNotCallNumber',
  view: z.object({
    id: d(field.id(), 'Unique id (UUID).'),
    phoneNumber: d(z.string(), 'E.164.'),
    reason: d(z.string().nullable(), 'Why the number is listed, as given when it was added.'),
    createdAt: d(z.date(), 'When the record was created.'),
  }),
});

export type DoNotCallView = ViewOf<typeof doNotCallContract>;

/** The view of a listed number. */
export const toDoNotCallView = (entry: DoNotCallNumber): DoNotCallView => viewOf(doNotCallContract, entry);
