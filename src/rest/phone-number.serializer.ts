import { phoneNumberContract } from '../services/phone-numbers/phone-number.contract';
import { restShape } from './contract-shape';

/** A number the company calls from (management extension), derived from its contract. */
const phoneNumber = restShape(phoneNumberContract);
export const phoneNumberShape = phoneNumber.schema;
export const serializePhoneNumber = phoneNumber.serialize;
