import { doNotCallAddFields } from '../services/do-not-call/do-not-call.contract';
import type { DoNotCallAddInput } from '../services/do-not-call/do-not-call.input';
import { contractInputType, shapeOnly } from './contract.type';

export const AddDoNotCallNumbersInput = contractInputType<DoNotCallAddInput>('AddDoNotCallNumbersInput', 'Numbers to put on the do-not-call list.', doNotCallAddFields(shapeOnly), {
  required: ['numbers'],
});
