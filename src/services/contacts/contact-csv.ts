import { pipeline, Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { TextDecoder } from 'node:util';
import { CsvError, parse } from 'csv-parse';
import { type FieldError, ValidationError } from '../shared/errors';
import { CSV_HEADER_KEYS, CSV_MAPPING_KEYS, type ContactCsvMapping, type CsvContactField, type CsvMappingKey, MAX_CSV_BYTES, MAX_CSV_ROWS } from './contact.input';
import { camelName, snakeName } from '../shared/naming';
import { textProblem } from '../../db/storable';

/** A CSV file as it arrives: UTF-8 bytes in chunks (a request body), or text (a GraphQL string). */
export type CsvSource = AsyncIterable<Uint8Array | string> | Iterable<string>;

/** Most field errors one failed import lists; the message says how many there were in all. */
export const MAX_LISTED_ERRORS = 100;

/** Rows checked between two turns of the event loop. */
const YIELD_EVERY = 500;

/** Longest CSV record taken: past it, an unclosed quote would swallow the rest of the file. */
const MAX_RECORD_BYTES = 256 * 1024;

const fileError = (message: string) => ValidationError.of('file', message);

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
    // One rule for the API, the dry run and the console's preview: a file is UTF-8 or refused, never guessed (a Windows-1252 `ü` would be stored as U+FFFD).
    throw fileError('Must be UTF-8 text; this file is not (Excel: save as "CSV UTF-8")');
  }
}

/** The delimiters a file may use. */
export const CSV_DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/**
 * The delimiter of a file whose text starts with `head`: the candidate found most often in
 * its header row outside quotes (a comma when none is), as spreadsheets export a comma,
 * semicolon (locales whose decimal mark is a comma) or tab-separated file.
 */
function delimiterOf(head: string): CsvDelimiter {
  const header = (head.split(/\r?\n/)[0] ?? '').replace(/"(?:[^"]|"")*"?/g, '');
  const counts = CSV_DELIMITERS.map((d) => header.split(d).length - 1);
  const most = Math.max(...counts);
  return most === 0 ? ',' : CSV_DELIMITERS[counts.indexOf(most)];
}

/** The text of `source`, its header row read first to choose the delimiter. */
async function delimited(source: CsvSource): Promise<{ delimiter: CsvDelimiter; text: AsyncGenerator<string> }> {
  const chunks = text(source);
  const head: string[] = [];
  let length = 0;
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    head.push(next.value);
    length += next.value.length;
    if (next.value.includes('\n') || length > MAX_RECORD_BYTES) break;
  }
  async function* whole(): AsyncGenerator<string> {
    yield* head;
    yield* chunks;
  }
  return { delimiter: delimiterOf(head.join('')), text: whole() };
}

/** The records of a CSV file, each an array of cells; a file that is not CSV is a `file` error naming its line. */
async function* records(content: AsyncGenerator<string>, delimiter: string): AsyncGenerator<string[]> {
  const parser = parse({ bom: true, delimiter, relax_column_count: true, max_record_size: MAX_RECORD_BYTES });
  // Errors of the source reach the loop below: pipeline destroys the parser with them.
  pipeline(Readable.from(content), parser, () => undefined);
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (err) {
    if (err instanceof CsvError)
      // `records` (records read so far) is part of the error's documented context.
      throw fileError(`Not valid CSV at line ${Number(err.records) + 1}: ${err.message.split(':')[0]}`);
    throw err;
  }
}

/** The columns an import reads: each mapped field's, under the key it was given, and the metadata columns. */
interface Columns {
  fields: { key: CsvMappingKey; field: CsvContactField; index: number }[];
  metadata: [string, number][];
}

/** The header's own names: each column named as a mapping key as REST documents it (any case: `First_Name`) feeds that key's field. */
function selfMapping(names: string[]): Partial<Record<CsvMappingKey, string>> {
  return Object.fromEntries(names.filter((name) => name.toLowerCase() in CSV_HEADER_KEYS).map((name) => [camelName(name.toLowerCase()), name]));
}

/**
 * The columns of `header` the import reads: those `given` maps, or, when it maps no field,
 * those the header names itself (`selfMapping`); or the mapping errors (a header missing
 * from the file or there twice, two keys of one field, no phone number column).
 */
function columnsOf(header: string[], given: ContactCsvMapping | undefined): Columns {
  const names = header.map((h) => h.trim());
  const errors: FieldError[] = [];
  const column = (name: string, field: string): number => {
    const index = names.indexOf(name.trim());
    if (index < 0) errors.push({ field, message: `No column "${name}" in the header row` });
    else if (names.lastIndexOf(name.trim()) !== index) errors.push({ field, message: `Column "${name}" appears more than once in the header row` });
    return index;
  };
  const keys = (Object.keys(CSV_MAPPING_KEYS) as CsvMappingKey[]).filter((key) => typeof given?.[key] === 'string');
  const own = keys.length === 0;
  const mapping: Partial<Record<CsvMappingKey, string>> = own ? selfMapping(names) : Object.fromEntries(keys.map((key) => [key, given![key] as string]));
  const fields: Columns['fields'] = [];
  for (const [key, name] of Object.entries(mapping) as [CsvMappingKey, string][]) {
    const field = CSV_MAPPING_KEYS[key];
    const twice = fields.find((f) => f.field === field);
    const where = own ? 'file' : `mapping.${key}`;
    if (twice) errors.push({ field: where, message: `Maps ${snakeName(field)}, as another key does: keep one` });
    else fields.push({ key, field, index: column(name, where) });
  }
  if (!fields.some((f) => f.field === 'phoneNumber')) {
    errors.push(
      own
        ? { field: 'mapping', message: `No mapping given and no column named phone_number: name the columns as the contact fields (${Object.keys(CSV_HEADER_KEYS).join(', ')}) or send a mapping` }
        : { field: 'mapping.phoneNumber', message: 'Required: the header of the phone number column' },
    );
  }
  const metadata = (given?.metadata ?? []).map((name, i): [string, number] => [name.trim(), column(name, `mapping.metadata[${i}]`)]);
  if (errors.length > 0) throw new ValidationError(errors);
  return { fields, metadata };
}

/** The columns an import read, as its preview shows them: each mapping key used -> its header, and the metadata headers. */
export interface CsvColumns {
  mapped: Record<string, string>;
  metadata: string[];
}

const columnsShown = (header: string[], { fields, metadata }: Columns): CsvColumns => ({
  mapped: Object.fromEntries(fields.map(({ key, index }) => [key, header[index].trim()])),
  metadata: metadata.map(([name]) => name),
});

const isBlank = (record: string[]): boolean => record.every((cell) => cell.trim() === '');

/**
 * One data row -> the contact input it stands for (raw, as a client would send it), or the
 * row's problems, named by mapping key. Cells are trimmed; an empty cell is a field left out.
 */
function rowInput(record: string[], width: number, columns: Columns): { input: Record<string, unknown>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const cell = (index: number, field: string): string | undefined => {
    const value = record[index]?.trim() ?? '';
    const problem = textProblem(value);
    if (problem) errors.push({ field, message: problem });
    return value === '' || problem ? undefined : value;
  };
  if (record.slice(width).some((extra) => extra.trim() !== '')) errors.push({ field: '', message: `Has ${record.length} cells; the header row has ${width}` });
  const input: Record<string, unknown> = {};
  for (const { key, field, index } of columns.fields) input[field] = cell(index, key);
  if (columns.metadata.length > 0) {
    const entries = columns.metadata.map(([name, index]) => [name, cell(index, `metadata.${name}`)] as const);
    input.metadata = Object.fromEntries(entries.filter(([, value]) => value !== undefined));
  }
  return { input, errors };
}

/** A problem of one data row (`line` as a spreadsheet numbers it, the header 1), or of the mapping against the header (`line` null). */
export interface CsvRowError {
  line: number | null;
  /** The mapping key (`firstName`, as the mapping named it), `metadata.<header>`, or null for the whole row; for the mapping, `mapping.<key>`, `mapping` or `file`. */
  field: string | null;
  message: string;
}

/** `phoneNumber` on line 14 -> `[14].phoneNumber`; the whole row -> `[14]`; a mapping problem as it is. */
const asFieldError = ({ line, field, message }: CsvRowError): FieldError => ({ field: line === null ? (field ?? '') : field === null ? `[${line}]` : `[${line}].${field}`, message });

/** A row error's field named by the mapping key given (`firstname` -> `firstName` when the mapping named it so). */
function byKey({ field, message }: FieldError, columns: Columns): FieldError {
  const [head = '', ...rest] = field.split('.');
  const key = columns.fields.find((f) => f.field === head)?.key ?? head;
  return { field: [key, ...rest].filter((part) => part !== '').join('.'), message };
}

/** One data row checked by `check`, its errors named by mapping key (a bad cell's field is named once). */
function checkRow<T>(record: string[], width: number, columns: Columns, check: (input: Record<string, unknown>) => { data: T } | { errors: FieldError[] }): { data: T } | { errors: FieldError[] } {
  const { input, errors } = rowInput(record, width, columns);
  const checked = check(input);
  if (errors.length === 0 && 'data' in checked) return checked;
  const own = errors.map((error) => byKey(error, columns));
  const named = new Set(own.map((error) => error.field));
  const rules = 'errors' in checked ? checked.errors.map((error) => byKey(error, columns)).filter((error) => !named.has(error.field)) : [];
  return { errors: [...own, ...rules] };
}

/** A file read: its header and delimiter, the columns read, each good row's checked value by line, and the problems found. */
export interface CsvRead<T> {
  header: string[];
  delimiter: CsvDelimiter;
  columns: CsvColumns;
  rows: { line: number; data: T }[];
  /** Data rows read (blank lines aside). */
  count: number;
  /** Data rows with at least one error. */
  invalid: number;
  /** The first MAX_LISTED_ERRORS problems, mapping problems first. */
  errors: CsvRowError[];
  /** Problems in all. */
  errorCount: number;
}

/**
 * Reads an import file into one checked value per good data row (`check` applies the contact
 * rules), naming each bad row's fields by the line a spreadsheet shows (the header is line 1),
 * the first MAX_LISTED_ERRORS of them listed. Blank lines are skipped but counted.
 *
 * `preview` false (an import, all or nothing): a mapping that does not fit the header, or any
 * bad row, fails the whole file (`[14].phoneNumber`). `preview` true (a dry run): they are
 * answered in `errors`; when the mapping does not fit, rows are counted but not checked.
 * Either way, a file that cannot be read (not UTF-8 or CSV, empty, too large) fails.
 */
export async function readContactCsv<T>(
  source: CsvSource,
  mapping: ContactCsvMapping | undefined,
  check: (input: Record<string, unknown>) => { data: T } | { errors: FieldError[] },
  { preview }: { preview: boolean },
): Promise<CsvRead<T>> {
  const { delimiter, text: content } = await delimited(source);
  const rows: CsvRead<T>['rows'] = [];
  const errors: CsvRowError[] = [];
  let errorCount = 0;
  const note = (found: CsvRowError[]) => {
    errorCount += found.length;
    errors.push(...found.slice(0, MAX_LISTED_ERRORS - errors.length));
  };
  let count = 0;
  let invalid = 0;
  let width = 0;
  let header: string[] | undefined;
  let columns: Columns | undefined;
  let shown: CsvColumns = { mapped: {}, metadata: [] };
  let line = 0;
  for await (const record of records(content, delimiter)) {
    line++;
    if (!header) {
      header = record.map((name) => name.trim());
      width = record.length;
      try {
        columns = columnsOf(record, mapping);
        shown = columnsShown(record, columns);
      } catch (err) {
        if (!preview || !(err instanceof ValidationError)) throw err;
        note(err.fields.map((error) => ({ line: null, ...error })));
      }
      continue;
    }
    if (isBlank(record)) continue;
    if (++count > MAX_CSV_ROWS) throw fileError(`Must have at most ${MAX_CSV_ROWS.toLocaleString('en-US')} rows`);
    if (!columns) continue;
    // Checking a row takes tens of microseconds (libphonenumber): let other requests in between batches.
    if (count % YIELD_EVERY === 0) await setImmediate();
    const checked = checkRow(record, width, columns, check);
    if ('errors' in checked) {
      invalid++;
      note(checked.errors.map(({ field, message }) => ({ line, field: field === '' ? null : field, message })));
      // An import will write nothing now: the rest is only checked and counted.
      if (!preview) rows.length = 0;
    } else if (preview || errorCount === 0) rows.push({ line, data: checked.data });
  }
  if (!header) throw fileError('Is empty: expected a header row, then one row per contact');
  if (!preview && errorCount > 0) {
    const more = errorCount > errors.length ? `; the first ${errors.length} are listed` : '';
    throw new ValidationError(errors.map(asFieldError), `Validation failed: ${errorCount} ${errorCount === 1 ? 'error' : 'errors'} in the file${more}`);
  }
  if (count === 0) throw fileError('Has no rows after the header row');
  return { header, delimiter, columns: shown, rows, count, invalid, errors, errorCount };
}
