import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';

export interface ParsedPhone {
  /** E.164; an extension, if any, is dropped. */
  e164: string;
  /** Country calling code, digits only (`1`, `44`). */
  countryCode: string;
}

/**
 * Parses phone numbers with libphonenumber's full metadata. Accepts E.164, national
 * formats (read in the default region), numbers with an extension and international
 * numbers with separators; rejects free text that merely contains a number.
 */
export class PhoneParser {
  constructor(private readonly defaultRegion: string) {}

  parse(input: string): ParsedPhone | null {
    const text = input.trim();
    if (text === '' || text.length > 64) return null;
    const phone = parsePhoneNumberFromString(text, { defaultCountry: this.defaultRegion as CountryCode, extract: false });
    if (!phone?.isValid()) return null;
    return { e164: phone.number, countryCode: phone.countryCallingCode };
  }
}
