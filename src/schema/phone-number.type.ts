import { phoneNumberContract, type PhoneNumberView } from '../services/phone-numbers/phone-number.contract';
import { contractObjectType } from './contract.type';

/** A number the company owns and may call from, from its contract. */
export const PhoneNumberType = contractObjectType(phoneNumberContract, { description: 'A number your company owns and may call from.' });
export type PhoneNumberType = PhoneNumberView;
