import { z } from 'zod';
import { callContract } from '../services/calls/call.contract';
import { restShape } from './contract-shape';

/** Call record, interface 2.1, derived from its contract. */
const call = restShape(callContract);
export const callShape = call.schema;
export const serializeCall = call.serialize;
/** A stored call view's REST JSON (the text `serializeCall` gives, written in one pass): the pages of `GET /v1/calls`. */
export const callJson = call.json;

/** A page of calls, newest first. */
export const callPageShape = z.strictObject({ items: z.array(callShape), next_cursor: z.string().nullable() });
