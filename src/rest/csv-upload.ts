import type { ParsedUrlQuery } from 'node:querystring';
import { PassThrough, type Readable } from 'node:stream';
import busboy from 'busboy';
import { z } from 'zod';
import type { CsvSource } from '../services/contacts/contact-csv';
import { ValidationError } from '../services/shared/errors';
import { uuid } from '../services/shared/common.input';
import { contactCsvMapping, contactCsvMappingFields, ON_DUPLICATE } from '../services/contacts/contact.input';
import { hasContent } from '../http/json-body';
import type { RestContext } from './middleware';

/** Largest `mapping` part of a multipart upload. */
const MAX_MAPPING_BYTES = 64 * 1024;

/**
 * The query string of a CSV import, for /openapi.json: the mapping (for a `text/csv` body;
 * a multipart upload sends it as a part), the campaign and the dry-run switch.
 */
export const csvImportQuery = z.object(contactCsvMappingFields).extend({
  metadata: z.string().optional().meta({ description: 'Header names of the columns copied into `metadata`, comma-separated.' }),
  campaign_id: uuid().optional().meta({ description: 'Attach every contact to this campaign of your company.' }),
  dry_run: z.enum(['true', 'false']).optional().meta({ description: '`true`: check the whole file, write nothing, answer the same counts.' }),
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

/** What a CSV upload carries: the import's options, as sent (the service validates them), and the file. */
export interface CsvUpload {
  options: Record<string, unknown>;
  file: CsvSource;
}

/**
 * Options from the query string: `dry_run`, `campaign_id` and `on_duplicate`; every other
 * key is part of the mapping (an unknown one is refused by the service as `mapping.<key>`,
 * with the valid keys), `metadata` comma-separated or repeated.
 */
function queryOptions(query: ParsedUrlQuery): { mapping: Record<string, unknown>; campaign_id: unknown; dry_run: unknown; on_duplicate: unknown } {
  const { campaign_id, dry_run, on_duplicate, metadata, ...mapping } = query;
  const flag = dry_run === 'true' ? true : dry_run === 'false' ? false : dry_run;
  return { mapping: { ...mapping, ...(metadata === undefined ? {} : { metadata: [metadata].flat().flatMap((names) => names.split(',')) }) }, campaign_id, dry_run: flag, on_duplicate };
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
  const options = queryOptions(ctx.query);
  if (Object.keys(options.mapping).length > 0) throw ValidationError.of('mapping', 'Send the mapping in the query string or in the mapping part, not both');
  return new Promise((resolve, reject) => {
    let parts: busboy.Busboy;
    try {
      parts = busboy({ headers: ctx.req.headers, limits: { files: 1, fields: 1, fieldSize: MAX_MAPPING_BYTES } });
    } catch {
      reject(ValidationError.of('file', 'Malformed multipart body: no boundary')); return;
    }
    let mapping: unknown;
    parts.on('field', (name, value, info) => {
      if (name !== 'mapping') { reject(ValidationError.of(name, 'Unknown part: send `mapping`, then `file`')); return; }
      if (info.valueTruncated) { reject(ValidationError.of('mapping', `Must be at most ${MAX_MAPPING_BYTES / 1024} KiB`)); return; }
      try {
        mapping = JSON.parse(value) as unknown;
      } catch {
        reject(ValidationError.of('mapping', 'Must be a JSON object'));
      }
    });
    parts.on('file', (name, file) => {
      if (name !== 'file') { reject(ValidationError.of(name, 'Unknown part: send `mapping`, then `file`')); return; }
      // No mapping part: the header maps itself.
      resolve({ options: { ...options, ...(mapping === undefined ? {} : { mapping }) }, file: chunksOf(file, 'Malformed multipart body') });
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
  return { options: queryOptions(ctx.query), file: hasContent(ctx) ? chunksOf(body(ctx), 'The request body could not be read') : [] };
}
