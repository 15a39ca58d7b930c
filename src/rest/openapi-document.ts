import { z } from 'zod';
import { idInput } from '../services/shared/records';
import { errorEnvelopeShape, legacyRateLimitedShape, quirkErrorShape, okEnvelopeShape } from './envelope';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from './idempotency';
import { type DocumentedError, type Operation, TAGS } from './openapi';

type Json = Record<string, unknown>;

/** The `Retry-After` header of a refusal over a rate limit. */
const RETRY_AFTER = { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } };

/**
 * Formats zod names after its own string checks (`.startsWith()` becomes `starts_with`), which
 * no OpenAPI tool knows; the `pattern` zod writes beside them states the same rule.
 */
const ZOD_ONLY_FORMATS = new Set(['starts_with', 'ends_with', 'includes', 'regex', 'lowercase', 'uppercase']);

/**
 * JSON Schema noise zod adds that says nothing to a reader or misleads a tool: safe-integer
 * bounds, the date-time regex, zod's private format names.
 */
function tidy({ jsonSchema: s }: { jsonSchema: Json }): void {
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.format === 'date-time' || s.format === 'date' || s.format === 'time') delete s.pattern;
  if (typeof s.format === 'string' && ZOD_ONLY_FORMATS.has(s.format)) delete s.format;
}

/** `$ref`s of a standalone JSON Schema point into `$defs`; in the document, into components. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : relink(v)]));
}

/**
 * Converts zod schemas to the JSON Schema 2020-12 of OpenAPI 3.1, describing what a client
 * sends (`io: 'input'`: a phone number is the string sent, not the parsed number). Schemas
 * with an id (`.meta({ id })`, the resource shapes) become shared components. Refinements
 * (`.refine`) have no JSON Schema form; their rules are in the prose and the 400 field list.
 * A schema zod cannot describe throws, so that the document never silently lies.
 */
class Schemas {
  readonly components: Record<string, Json> = {};

  convert(schema: z.ZodType): Json {
    const { $schema: _, $defs, ...root } = z.toJSONSchema(schema, { io: 'input', override: tidy }) as Json;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      const linked = relink(def) as Json;
      const known = this.components[name];
      if (known && JSON.stringify(known) !== JSON.stringify(linked)) throw new Error(`Two different schemas are named ${name}`);
      this.components[name] = linked;
    }
    return relink(root) as Json;
  }
}

const json = (schema: Json) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** Failures shared by many operations, referenced from each. */
function sharedResponses(schemas: Schemas): Json {
  const error = schemas.convert(errorEnvelopeShape);
  return {
    Unauthorized: { description: 'Missing or bad credentials: `Unauthorized`.', content: json(error) },
    TooLarge: { description: 'Body over 1 MiB.', content: json(error) },
    UnsupportedMediaType: { description: 'A body of another media type than the operation takes (`text/plain`, a form for a JSON body).', content: json(error) },
    RateLimited: {
      description: 'Too many requests for this credential; retry after the number of seconds in Retry-After.',
      headers: { 'Retry-After': RETRY_AFTER },
      content: json(error),
    },
    InternalError: { description: '`Internal server error`: logged in full with the request id (X-Request-Id), never shown.', content: json(error) },
  };
}

function badRequest(op: Operation, schemas: Schemas): Json {
  const causes = ['malformed URL encoding or NUL characters'];
  if (op.params || op.query || op.body || op.bodies || /:\w+/.test(op.path)) causes.unshift('`Validation failed`, with every offending field in `data`');
  if (op.body && (op.bodyType ?? 'application/json') === 'application/json') causes.push('`Malformed JSON body`');
  if (op.policy === 'make-call') {
    causes.push('`error` with data `""` when the service refuses the call (agent or `call_from` not the company\'s; documented, interface 4.1)');
    return { description: `${causes.join('; ')}.`, content: json({ anyOf: [schemas.convert(errorEnvelopeShape), schemas.convert(quirkErrorShape)] }) };
  }
  return { description: `${causes.join('; ')}.`, content: json(schemas.convert(errorEnvelopeShape)) };
}

function documentedError(error: DocumentedError, schemas: Schemas): Json {
  if (typeof error === 'string') return { description: error, content: json(schemas.convert(errorEnvelopeShape)) };
  const body = z.strictObject({ status: z.literal('error'), message: z.literal(error.message), data: error.data });
  return { description: error.description, content: json(schemas.convert(body)) };
}

function success(op: Operation, schemas: Schemas): Json {
  if (op.unwrapped) return { description: 'OK', content: { [op.dataType ?? 'application/json']: { schema: schemas.convert(op.data) } } };
  const ok = schemas.convert(okEnvelopeShape(op.data));
  if (op.policy !== 'legacy-200') return { description: 'OK', content: json(ok) };
  return {
    description: 'OK, or any failure but credentials: HTTP 200 with status `error` (documented quirk); over a rate limit, message `Too many requests` with Retry-After.',
    headers: { 'Retry-After': { ...RETRY_AFTER, description: 'Over a rate limit: seconds to wait before retrying.' } },
    content: json({ anyOf: [ok, schemas.convert(quirkErrorShape), schemas.convert(legacyRateLimitedShape)] }),
  };
}

function responses(op: Operation, schemas: Schemas): Json {
  const bearer = op.auth !== 'none';
  const legacy = op.policy === 'legacy-200';
  // The legacy operations answer every failure but credentials with HTTP 200, a malformed URL included.
  const out: Json = { 200: success(op, schemas), ...(legacy ? {} : { 400: badRequest(op, schemas) }) };
  if (bearer) out[401] = ref('Unauthorized');
  for (const [status, error] of Object.entries(op.errors ?? {})) if (error) out[status] = documentedError(error, schemas);
  if (op.body && !legacy) out[413] = ref('TooLarge');
  if ((op.body || op.bodies) && !legacy) out[415] = ref('UnsupportedMediaType');
  if (bearer && !legacy) out[429] = ref('RateLimited');
  if (!legacy) out[500] = ref('InternalError');
  if (op.idempotent) idempotencyResponses(out, schemas);
  return out;
}

function parameters(op: Operation, schemas: Schemas): Json[] {
  const inPath = [...op.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const path = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: schemas.convert((op.params?.shape[name] as z.ZodType | undefined) ?? idInput.shape.id),
  }));
  const header = op.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : [];
  if (!op.query) return [...path, ...header];
  const query = schemas.convert(op.query) as { properties?: Record<string, Json>; required?: string[] };
  return [
    ...path,
    ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query.required?.includes(name) ?? false,
      schema: withoutNull(schema),
    })),
    ...header,
  ];
}

/**
 * A query string cannot carry JSON null: the null branch of a schema shared with JSON bodies
 * (`workspace: string | null`) means "absent" there, which `required: false` already says.
 */
function withoutNull(schema: Json): Json {
  const { anyOf, ...rest } = schema as { anyOf?: Json[] };
  const branches = anyOf?.filter((b) => b.type !== 'null');
  if (!anyOf || branches?.length === anyOf.length) return schema;
  return branches!.length === 1 ? { ...rest, ...branches![0] } : { ...rest, anyOf: branches };
}

/** The header of `idempotent` operations (docs/rest.md, "Idempotent retries"). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description: 'Makes a retry safe: a repeat with the same key and body within 24 hours answers the first answer (with `Idempotent-Replayed: true`) and does nothing else. Keys are per company.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

/** The failures an `Idempotency-Key` adds, and the header of a replayed answer. */
function idempotencyResponses(out: Json, schemas: Schemas): void {
  const error = json(schemas.convert(errorEnvelopeShape));
  const running = 'A request with this Idempotency-Key is still in progress.';
  const conflict = out[409] as { description: string } | undefined;
  out[409] = conflict ? { ...conflict, description: `${conflict.description} Or: ${running}` } : { description: running, content: error };
  out[422] = { description: 'This Idempotency-Key was already used for a different request.', content: error };
  const ok = out[200] as Json;
  out[200] = {
    ...ok,
    headers: { [REPLAYED_HEADER]: { description: '`true` when this is the kept answer of an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } } },
  };
}

/**
 * A JSON request without content is read as `{}` (`readJsonBody`): the body is optional
 * exactly when the operation's own schema accepts that. Other media types are always required.
 */
function bodyRequired(op: Operation): boolean {
  if (op.bodies || (op.bodyType ?? 'application/json') !== 'application/json') return true;
  return !op.body?.safeParse({}).success;
}

function requestBody(op: Operation, schemas: Schemas): Json {
  const bodies = op.bodies ?? { [op.bodyType ?? 'application/json']: op.body };
  const content = Object.fromEntries(Object.entries(bodies).flatMap(([type, schema]) => (schema ? [[type, { schema: schemas.convert(schema) }]] : [])));
  return { required: bodyRequired(op), content };
}

function operation(op: Operation, schemas: Schemas): Json {
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.auth === 'none' ? { security: [] } : {}),
    parameters: parameters(op, schemas),
    ...(op.body || op.bodies ? { requestBody: requestBody(op, schemas) } : {}),
    responses: responses(op, schemas),
  };
}

/** `/v1/calls/:id` -> `/v1/calls/{id}` */
export const openApiPath = (koaPath: string): string => koaPath.replace(/:(\w+)/g, '{$1}');

/** The OpenAPI 3.1 document of `operations`, served at GET /openapi.json; `serverUrl` is PUBLIC_BASE_URL. */
export function openApiDocument(operations: readonly Operation[], serverUrl: string): Json {
  const schemas = new Schemas();
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const item = (paths[openApiPath(op.path)] ??= {});
    item[op.method] = operation(op, schemas);
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Switchboard API',
      version: '1',
      description:
        'REST API of Switchboard. Every answer is the envelope `{status, message, data}`; the documented quirks of the ' +
        'interface are kept (campaign update and contact listing answer HTTP 200 with status `error`; make-call answers ' +
        '400 `error` when the service refuses the call). Authenticate with `Authorization: Bearer <API key sk_... or JWT>`. ' +
        'Decisions and rules that JSON Schema cannot state: docs/rest.md.',
      contact: { name: 'Switchboard maintainers' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl, description: 'This deployment (PUBLIC_BASE_URL).' }],
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name, description: TAGS[name] })),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (`sk_...`, from the admin CLI) or a JWT (HS256 with JWT_SECRET; claims company_id, sub, exp).',
        },
      },
      responses: sharedResponses(schemas),
      schemas: schemas.components,
    },
  };
}
