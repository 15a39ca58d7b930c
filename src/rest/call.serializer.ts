import { z } from 'zod';
import { callContract } from '../services/calls/call.contract';
import { restShape } from './contract-shape';

/** Call record, interface 2.1, derived from its contract. */
const call = restShape(callContract);
export const callShape = call.schema;
export const serializeCall = call.serialize;

/** A page of calls, newest first. */
export const callPageShape = z.strictObject({ items: z.array(callShape), next_cursor: z.string().nullable() });
