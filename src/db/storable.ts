/**
 * Why a piece of text cannot be stored: PostgreSQL refuses NUL characters in text and
 * jsonb, and unpaired UTF-16 surrogates are not Unicode (jsonb refuses their escapes, text
 * would silently get U+FFFD instead).
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'NUL characters are not allowed';
  if (UNPAIRED_SURROGATE.test(text)) return 'Unpaired surrogate characters are not allowed';
  return null;
}

const UNSTORABLE = new RegExp(`\\u0000|${UNPAIRED_SURROGATE.source}`, 'g');

/** `text` as PostgreSQL can store it: each NUL and unpaired surrogate (`textProblem`) replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, '\uFFFD');
}

/** JSON.stringify's replacer giving each string, value or key, as `storableText`. */
function storableReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [storableText(key), child]));
}

/**
 * The JSON of `value` with every string as `storableText`: for what is written as it came
 * from outside (a receiver's answer, a model's words), which cannot be refused as inputs are.
 */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  // JSON.stringify writes a NUL and an unpaired surrogate as \u escapes: without one, there is nothing to replace.
  return /\\u(0000|d[89a-f])/i.test(json) ? JSON.stringify(value, storableReplacer) : json;
}

/** A JSON value (no dates) with every string as `storableText`, for the ORM to write. */
export function storableValue<T>(value: T): T {
  return JSON.parse(storableJson(value)) as T;
}
