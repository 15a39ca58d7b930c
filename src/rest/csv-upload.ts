import type { ParsedUrlQuery } from 'node:querystring';
import { PassThrough, type Readable } from 'node:stream';
import busboy from 'busboy';
import { z } from 'zod';
import type { CsvSource } from '../services/contacts/contact-csv';
import { ValidationError } from '../services/shared/errors';
import { uuid } from '../services/shared/common.input';
import { type ContactCsvImportInput, contactCsvMapping, contactCsvMappingFields, ON_DUPLICATE } from '../services/contacts/contact.input';
import { hasContent } from '../http/json-body';
import type { RestContext } from './middleware';
import { asServiceInput, serviceInput, toServiceNames } from './rest-names';

/** Largest `mapping` part of a multipart upload. */
const MAX_MAPPING_BYTES = 64 * 1024;

/**
 * The query string of a CSV import, for /openapi.json: the mapping (for a `text/csv` body;
 * a multipart upload sends it as a part), the campaign and the dry-run switch.
 */
export const csvImportQuery = z.object(contactCsvMappingFields).extend({
  metadata: z.string().optional().meta({ description: 'Header names of the columns copied into `metadata`, comma-separated.' }),
  campaign_id: uuid().optional().meta({ description: 'Attach every contact to this campaign of your company.' }),
  dry_run: z.enum(['true', 'false']).optional().meta({ description: "`true`: check the whole file, write nothing, answer the same counts and a preview with every bad row's problems (200)." }),
  on_duplicate: z.enum(ON_DUPLICATE).optional().meta({ description: 'A row whose number a contact of your company already has: `skip` (the default) or `update` that contact.' }),
});

/** The request bodies a CSV import takes, for /openapi.json. */
export const csvImportBodies = {
  'text/csv': z.string().meta({
    description: 'UTF-8 CSV, header row first (a byte order mark is ignored; quoted fields and CRLF line ends are fine); the mapping in the query string.',
    examples: ['phone,first name,plan\n+14155552671,Ada,gold\n'],
  }),
  'multipart/form-data': z.strictObject({
    mapping: contactCsvMapping.optional(),
    file: z.string().meta({ contentMediaType: 'text/csv', description: 'The CSV file, after the `mapping` part.' }),
  }),
};

/** What a CSV upload carries: the import's options, under the service's names (it validates them), and the file. */
export interface CsvUpload {
  options: ContactCsvImportInput;
  file: CsvSource;
}

/**
 * Options from the query string, renamed for the service (`restNames`): `dryRun`,
 * `campaignId` and `onDuplicate`; every other key is part of the mapping (one REST does not
 * document is refused, `knownMappingKeys`), `metadata` comma-separated or repeated.
 */
function queryOptions(ctx: RestContext): ContactCsvImportInput {
  knownMappingKeys(Object.fromEntries(Object.entries(ctx.query).filter(([key]) => !['campaign_id', 'dry_run', 'on_duplicate'].includes(key))));
  const { campaignId, dryRun, onDuplicate, metadata, ...mapping } = serviceInput<ParsedUrlQuery>(ctx, 'query');
  const flag = dryRun === 'true' ? true : dryRun === 'false' ? false : dryRun;
  return asServiceInput({ mapping: { ...mapping, ...(metadata === undefined ? {} : { metadata: [metadata].flat().flatMap((names) => names.split(',')) }) }, campaignId, dryRun: flag, onDuplicate });
}

/**
 * Refuses a mapping key REST does not document (`mapping.<key>`, listing the valid keys):
 * the service takes its own names (`CSV_MAPPING_KEYS`), so REST names its own.
 */
function knownMappingKeys(mapping: unknown): void {
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) return;
  const valid = Object.keys(contactCsvMappingFields);
  const unknown = Object.keys(mapping).filter((key) => !valid.includes(key));
  if (unknown.length > 0) throw new ValidationError(unknown.map((key) => ({ field: `mapping.${key}`, message: `Unknown mapping key; valid keys: ${valid.join(', ')}` })));
}

/** The chunks of `stream`, its failures (a truncated upload) told as a `file` error. */
async function* chunksOf(stream: Readable, failure: string): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch {
    throw ValidationError.of('file', failure);
  }
}

/** Calls `stop` when the request body fails or the client goes away before sending all of it (a pipe would wait forever). */
function onBroken(ctx: RestContext, stop: (err: Error) => void): void {
  ctx.req.once('error', stop);
  ctx.req.once('close', () => {
    if (!ctx.req.complete) stop(new Error('Request body incomplete'));
  });
}

/**
 * The request body, through a pipe, so that a reader that stops early destroys the pipe,
 * not the request (that would close the socket before the answer): the rest is left
 * unread, and the route closes the connection after answering. A broken request body
 * fails the reader.
 */
function body(ctx: RestContext): PassThrough {
  const pass = new PassThrough();
  onBroken(ctx, (err) => pass.destroy(err));
  return ctx.req.pipe(pass);
}

/** A multipart upload: the `mapping` part (JSON), then the `file` part, streamed. */
function multipart(ctx: RestContext): Promise<CsvUpload> {
  const options = queryOptions(ctx);
  if (Object.keys(options.mapping ?? {}).length > 0) throw ValidationError.of('mapping', 'Send the mapping in the query string or in the mapping part, not both');
  return new Promise((resolve, reject) => {
    let parts: busboy.Busboy;
    try {
      parts = busboy({ headers: ctx.req.headers, limits: { files: 1, fields: 1, fieldSize: MAX_MAPPING_BYTES } });
    } catch {
      reject(ValidationError.of('file', 'Malformed multipart body: no boundary'));
      return;
    }
    let mapping: unknown;
    parts.on('field', (name, value, info) => {
      if (name !== 'mapping') {
        reject(ValidationError.of(name, 'Unknown part: send `mapping`, then `file`'));
        return;
      }
      if (info.valueTruncated) {
        reject(ValidationError.of('mapping', `Must be at most ${MAX_MAPPING_BYTES / 1024} KiB`));
        return;
      }
      try {
        mapping = JSON.parse(value) as unknown;
      } catch {
        reject(ValidationError.of('mapping', 'Must be a JSON object'));
      }
    });
    parts.on('file', (name, file) => {
      if (name !== 'file') {
        reject(ValidationError.of(name, 'Unknown part: send `mapping`, then `file`'));
        return;
      }
      // No mapping part: the header maps itself.
      if (mapping !== undefined) knownMappingKeys(mapping);
      resolve({ options: { ...options, ...(mapping === undefined ? {} : { mapping: asServiceInput(toServiceNames(contactCsvMapping, mapping)) }) }, file: chunksOf(file, 'Malformed multipart body') });
    });
    parts.on('error', () => reject(ValidationError.of('file', 'Malformed multipart body')));
    parts.on('close', () => reject(ValidationError.of('file', 'Required: a part named file')));
    // A broken request body fails the file part; a reader that stops early destroys only the part.
    onBroken(ctx, (err) => parts.destroy(err));
    ctx.req.pipe(parts);
  });
}

/**
 * Reads the upload of a CSV import: a `text/csv` body with the mapping in the query
 * string, or a multipart body with a `mapping` part then a `file` part (settling its
 * promise again after the first outcome does nothing, as promises do).
 */
export async function readCsvUpload(ctx: RestContext): Promise<CsvUpload> {
  if (hasContent(ctx) && ctx.is('multipart/form-data')) return multipart(ctx);
  const charset = ctx.request.charset;
  if (charset && charset.toLowerCase() !== 'utf-8') throw ValidationError.of('file', 'Must be UTF-8 text (charset=utf-8)');
  return { options: queryOptions(ctx), file: hasContent(ctx) ? chunksOf(body(ctx), 'The request body could not be read') : [] };
}
