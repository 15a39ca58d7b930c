import { phoneNumberCreateFields, phoneNumberUpdateFields } from '../services/phone-numbers/phone-number.contract';
import type { PhoneNumberCreateInput, PhoneNumberUpdateInput } from '../services/phone-numbers/phone-number.input';
import { contractInputType, shapeOnly } from './contract.type';

export const CreatePhoneNumberInput = contractInputType<PhoneNumberCreateInput>('CreatePhoneNumberInput', 'A number your company owns, to call from.', phoneNumberCreateFields(shapeOnly), {
  required: ['phone_number'],
});

export const UpdatePhoneNumberInput = contractInputType<PhoneNumberUpdateInput>('UpdatePhoneNumberInput', 'What may change on a phone number: its label.', phoneNumberUpdateFields);
