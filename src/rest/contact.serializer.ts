import { contactContract } from '../services/contact.contract';
import { restShape } from './contract-shape';

/** Contact, interface 2.3, derived from its contract. */
const contact = restShape(contactContract);
export const contactShape = contact.schema;
export const serializeContact = contact.serialize;
