import { z } from 'zod';
import { doNotCallContract } from '../services/do-not-call/do-not-call.contract';
import { restShape } from './contract-shape';

/** A number on the company's do-not-call list, derived from its contract. */
const doNotCall = restShape(doNotCallContract);
export const doNotCallShape = doNotCall.schema;
export const serializeDoNotCallNumber = doNotCall.serialize;

export const doNotCallPageShape = z.strictObject({ items: z.array(doNotCallShape), next_cursor: z.string().nullable() });
