import { z } from 'zod';
import { idInput } from '../services/records';
import { errorEnvelopeShape, quirkErrorShape, okEnvelopeShape } from './envelope';
import type { DocumentedError, Operation } from './openapi';

type Json = Record<string, unknown>;

/** JSON Schema noise zod adds that says nothing to a reader: safe-integer bounds, the date-time regex. */
function tidy({ jsonSchema: s }: { jsonSchema: Json }): void {
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.format === 'date-time' || s.format === 'date' || s.format === 'time') delete s.pattern;
}

/** `$ref`s of a standalone JSON Schema point into `$defs`; in the document, into components. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : relink(v)]),
  );
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
    RateLimited: {
      description: 'Too many requests for this credential; retry after the number of seconds in Retry-After.',
      headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } },
      content: json(error),
    },
    InternalError: { description: '`Internal server error`: logged in full with the request id (X-Request-Id), never shown.', content: json(error) },
  };
}

function badRequest(op: Operation, schemas: Schemas): Json {
  const causes = ['malformed URL encoding or NUL characters'];
  if (op.params || op.query || op.body || /:\w+/.test(op.path)) causes.unshift('`Validation failed`, with every offending field in `data`');
  if (op.body && op.bodyType !== 'application/x-www-form-urlencoded') causes.push('`Malformed JSON body`');
  if (op.policy === 'make-call') {
    causes.push("`error` with data `\"\"` when the service refuses the call (agent or `call_from` not the company's; documented, interface 4.1)");
    return { description: `${causes.join('; ')}.`, content: json({ anyOf: [schemas.convert(errorEnvelopeShape), schemas.convert(quirkErrorShape)] }) };
  }
  if (op.policy === 'legacy-200') return { description: 'Malformed URL encoding or NUL characters (every other failure answers HTTP 200).', content: json(schemas.convert(errorEnvelopeShape)) };
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
    description: 'OK, or any failure but credentials: HTTP 200 with status `error` (documented quirk).',
    content: json({ anyOf: [ok, schemas.convert(quirkErrorShape)] }),
  };
}

function responses(op: Operation, schemas: Schemas): Json {
  const bearer = op.auth !== 'none';
  const legacy = op.policy === 'legacy-200';
  const out: Json = { 200: success(op, schemas), 400: badRequest(op, schemas) };
  if (bearer) out[401] = ref('Unauthorized');
  for (const [status, error] of Object.entries(op.errors ?? {})) if (error) out[status] = documentedError(error, schemas);
  if (op.body && !legacy) out[413] = ref('TooLarge');
  if (bearer) out[429] = ref('RateLimited');
  if (!legacy) out[500] = ref('InternalError');
  return out;
}

function parameters(op: Operation, schemas: Schemas): Json[] {
  const inPath = [...op.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const path = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: schemas.convert((op.params?.shape[name] as z.ZodType | undefined) ?? idInput.shape.id),
  }));
  if (!op.query) return path;
  const query = schemas.convert(op.query) as { properties?: Record<string, Json>; required?: string[] };
  return [
    ...path,
    ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: query.required?.includes(name) ?? false, schema })),
  ];
}

function operation(op: Operation, schemas: Schemas): Json {
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.auth === 'none' ? { security: [] } : {}),
    parameters: parameters(op, schemas),
    ...(op.body
      ? { requestBody: { required: true, content: { [op.bodyType ?? 'application/json']: { schema: schemas.convert(op.body) } } } }
      : {}),
    responses: responses(op, schemas),
  };
}

/** `/v1/calls/:id` -> `/v1/calls/{id}` */
export const openApiPath = (koaPath: string): string => koaPath.replace(/:(\w+)/g, '{$1}');

/** The OpenAPI 3.1 document of `operations`, served at GET /openapi.json. */
export function openApiDocument(operations: readonly Operation[]): Json {
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
    },
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
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
