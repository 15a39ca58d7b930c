import { phoneNumberCreateFields, phoneNumberUpdateFields } from '../services/phone-numbers/phone-number.contract';
import { contractInputType, shapeOnly } from './contract.type';

export const CreatePhoneNumberInput = contractInputType('CreatePhoneNumberInput', 'A number your company owns, to call from.', phoneNumberCreateFields(shapeOnly), {
  required: ['phone_number'],
});

export const UpdatePhoneNumberInput = contractInputType('UpdatePhoneNumberInput', 'What may change on a phone number: its label.', phoneNumberUpdateFields);
