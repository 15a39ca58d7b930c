import { pipeline, Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { TextDecoder } from 'node:util';
import { CsvError, parse } from 'csv-parse';
import { type FieldError, ValidationError } from '../shared/errors';
import { CSV_CONTACT_FIELDS, type ContactCsvMapping, MAX_CSV_BYTES, MAX_CSV_ROWS } from './contact.input';
import { textProblem } from '../shared/storable';

/** A CSV file as it arrives: UTF-8 bytes in chunks (a request body), or text (a GraphQL string). */
export type CsvSource = AsyncIterable<Uint8Array | string> | Iterable<string>;

/** Most field errors one failed import lists; the message says how many there were in all. */
export const MAX_LISTED_ERRORS = 100;

/** Rows checked between two turns of the event loop. */
const YIELD_EVERY = 500;

/** Longest CSV record taken: past it, an unclosed quote would swallow the rest of the file. */
const MAX_RECORD_BYTES = 256 * 1024;

const fileError = (message: string) => ValidationError.of('file', message);

/** The contact field a row error names -> the mapping key the caller knows it by. */
const MAPPING_KEY_OF: Record<string, string> = Object.fromEntries(Object.entries(CSV_CONTACT_FIELDS).map(([key, field]) => [field, key]));

/** The text of `source`, decoded strictly (a file that is not UTF-8 is refused, not garbled), at most MAX_CSV_BYTES. */
async function* text(source: CsvSource): AsyncGenerator<string> {
  // TextDecoder drops a leading byte order mark itself (ignoreBOM is false by default).
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  for await (const chunk of source) {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (bytes > MAX_CSV_BYTES) throw fileError(`Must be at most ${MAX_CSV_BYTES / 1024 / 1024} MiB`);
    yield typeof chunk === 'string' ? chunk : decode(decoder, chunk);
  }
  yield decode(decoder);
}

function decode(decoder: TextDecoder, chunk?: Uint8Array): string {
  try {
    return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
  } catch {
    throw fileError('Must be UTF-8 text');
  }
}

/** The records of a CSV file, each an array of cells; a file that is not CSV is a `file` error naming its line. */
async function* records(source: CsvSource): AsyncGenerator<string[]> {
  const parser = parse({ bom: true, relax_column_count: true, max_record_size: MAX_RECORD_BYTES });
  // Errors of the source reach the loop below: pipeline destroys the parser with them.
  pipeline(Readable.from(text(source)), parser, () => undefined);
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (err) {
    if (err instanceof CsvError) // `records` (records read so far) is part of the error's documented context.
      throw fileError(`Not valid CSV at line ${Number(err.records) + 1}: ${err.message.split(':')[0]}`);
    throw err;
  }
}

/** The column of each mapped header, or the mapping errors (a header missing from the file, or there twice). */
type MappedField = keyof typeof CSV_CONTACT_FIELDS;

function columnsOf(header: string[], mapping: ContactCsvMapping): { fields: [MappedField, number][]; metadata: [string, number][] } {
  const names = header.map((h) => h.trim());
  const errors: FieldError[] = [];
  const column = (name: string, field: string): number => {
    const index = names.indexOf(name.trim());
    if (index < 0) errors.push({ field, message: `No column "${name}" in the header row` });
    else if (names.lastIndexOf(name.trim()) !== index) errors.push({ field, message: `Column "${name}" appears more than once in the header row` });
    return index;
  };
  const mapped = Object.keys(CSV_CONTACT_FIELDS) as MappedField[];
  const fields = mapped.flatMap((key): [MappedField, number][] => (mapping[key] === undefined ? [] : [[key, column(mapping[key], `mapping.${key}`)]]));
  const metadata = (mapping.metadata ?? []).map((name, i): [string, number] => [name.trim(), column(name, `mapping.metadata[${i}]`)]);
  if (errors.length > 0) throw new ValidationError(errors);
  return { fields, metadata };
}

const isBlank = (record: string[]): boolean => record.every((cell) => cell.trim() === '');

/**
 * One data row -> the contact input it stands for (raw, as a client would send it), or the
 * row's problems, named by mapping key. Cells are trimmed; an empty cell is a field left out.
 */
function rowInput(record: string[], width: number, columns: ReturnType<typeof columnsOf>): { input: Record<string, unknown>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const cell = (index: number, field: string): string | undefined => {
    const value = record[index]?.trim() ?? '';
    const problem = textProblem(value);
    if (problem) errors.push({ field, message: problem });
    return value === '' || problem ? undefined : value;
  };
  if (record.slice(width).some((extra) => extra.trim() !== '')) errors.push({ field: '', message: `Has ${record.length} cells; the header row has ${width}` });
  const input: Record<string, unknown> = {};
  for (const [key, index] of columns.fields) input[CSV_CONTACT_FIELDS[key]] = cell(index, key);
  if (columns.metadata.length > 0) {
    const entries = columns.metadata.map(([name, index]) => [name, cell(index, `metadata.${name}`)] as const);
    input.metadata = Object.fromEntries(entries.filter(([, value]) => value !== undefined));
  }
  return { input, errors };
}

/** `phone_number` -> `[14].phone_number`; `firstname` -> `[14].first_name`; `` -> `[14]`. */
function onLine(line: number, { field, message }: FieldError): FieldError {
  const [head = '', ...rest] = field.split('.');
  const named = [MAPPING_KEY_OF[head] ?? head, ...rest].filter((part) => part !== '').join('.');
  return { field: named === '' ? `[${line}]` : `[${line}].${named}`, message };
}

/** One data row checked by `check`, its errors named by line and mapping key (a bad cell's field is named once). */
function checkRow<T>(
  line: number,
  record: string[],
  width: number,
  columns: ReturnType<typeof columnsOf>,
  check: (input: Record<string, unknown>) => { data: T } | { errors: FieldError[] },
): { data: T } | { errors: FieldError[] } {
  const { input, errors } = rowInput(record, width, columns);
  const checked = check(input);
  if (errors.length === 0 && 'data' in checked) return checked;
  const own = errors.map((error) => onLine(line, error));
  const named = new Set(own.map((error) => error.field));
  const rules = 'errors' in checked ? checked.errors.map((error) => onLine(line, error)).filter((error) => !named.has(error.field)) : [];
  return { errors: [...own, ...rules] };
}

/**
 * Reads an import file into one checked value per data row (`check` applies the contact
 * rules), all or nothing: any bad row fails the whole file with every bad row's fields
 * named by the line a spreadsheet shows (`[14].phone_number`; the header is line 1), the
 * first MAX_LISTED_ERRORS of them listed. Blank lines are skipped but counted.
 */
export async function readContactCsv<T>(
  source: CsvSource,
  mapping: ContactCsvMapping,
  check: (input: Record<string, unknown>) => { data: T } | { errors: FieldError[] },
): Promise<T[]> {
  const rows: T[] = [];
  const listed: FieldError[] = [];
  let total = 0;
  let count = 0;
  let width = 0;
  let columns: ReturnType<typeof columnsOf> | undefined;
  let line = 0;
  for await (const record of records(source)) {
    line++;
    if (!columns) {
      width = record.length;
      columns = columnsOf(record, mapping);
      continue;
    }
    if (isBlank(record)) continue;
    if (++count > MAX_CSV_ROWS) throw fileError(`Must have at most ${MAX_CSV_ROWS.toLocaleString('en-US')} rows`);
    // Checking a row takes tens of microseconds (libphonenumber): let other requests in between batches.
    if (count % YIELD_EVERY === 0) await setImmediate();
    const checked = checkRow(line, record, width, columns, check);
    if ('errors' in checked) {
      total += checked.errors.length;
      listed.push(...checked.errors.slice(0, MAX_LISTED_ERRORS - listed.length));
      // Nothing will be written now: the rest is only checked and counted.
      rows.length = 0;
    } else if (total === 0) rows.push(checked.data);
  }
  if (!columns) throw fileError('Is empty: expected a header row, then one row per contact');
  if (total > 0) {
    const more = total > listed.length ? `; the first ${listed.length} are listed` : '';
    throw new ValidationError(listed, `Validation failed: ${total} ${total === 1 ? 'error' : 'errors'} in the file${more}`);
  }
  if (rows.length === 0) throw fileError('Has no rows after the header row');
  return rows;
}
