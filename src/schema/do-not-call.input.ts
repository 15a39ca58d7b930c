import { doNotCallAddFields } from '../services/do-not-call/do-not-call.contract';
import { contractInputType, shapeOnly } from './contract.type';

export const AddDoNotCallNumbersInput = contractInputType('AddDoNotCallNumbersInput', 'Numbers to put on the do-not-call list.', doNotCallAddFields(shapeOnly), {
  required: ['numbers'],
});
