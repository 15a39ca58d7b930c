import { z } from 'zod';
import type { PhoneParser } from '../phone';
import { phone, text } from './common';

export const createPhoneNumberInput = (parser: PhoneParser) =>
  z.strictObject({
    phone_number: phone(parser),
    label: text(200).optional(),
  });

/** The number itself is fixed once added; only its label changes. */
export const updatePhoneNumberInput = z.strictObject({ label: text(200).optional() });
