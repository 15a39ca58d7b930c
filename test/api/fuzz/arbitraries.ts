import fc from 'fast-check';
import { type FuzzWorld, idsOf } from './support';

/** Generators of hostile and plausible input: JSON values and bodies, path segments, query strings, headers. */

/** Strings that have broken services before: NUL, lone surrogates, RTL, emoji, SQL, templates. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '😀👩‍👩‍👧',
  '\u202eevil',
  'ﷺ',
  "'; DROP TABLE contacts; --",
  '{{firstname}}',
  '${process.env}',
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '2026-02-30',
  '25:61:61',
  'Europe/Nowhere',
  '__proto__',
];

/** Values a well-formed request would carry, so that some generated bodies get past validation. */
function plausibleStrings(w: FuzzWorld): string[] {
  return [
    ...idsOf(w.a),
    ...idsOf(w.b),
    '00000000-0000-4000-8000-000000000000',
    '+14155552671',
    '+14155552672',
    '(415) 555-2671',
    '+44 20 7946 0958 ext. 12',
    'default',
    'active',
    'paused',
    'stopped',
    'outbound',
    'seconds',
    'POST',
    'https://example.com/hook',
    '09:00:00',
    'UTC',
    'America/New_York',
    '2026-01-01',
    '2026-01-01T00:00:00Z',
    'Ada',
  ];
}

/** Field names the API knows, so that generated objects hit real validation paths. */
const FIELD_NAMES = [
  'name',
  'notes',
  'status',
  'workspace',
  'workspace_id',
  'phone_number',
  'label',
  'firstname',
  'lastname',
  'metadata',
  'campaign_id',
  'ai_agent_id',
  'call_from',
  'call_to',
  'dynamic_variables',
  'value',
  'company_id',
  'owner_user_id',
  'inbound_phone_number_id',
  'outbound_phone_number_id',
  'webhook_id',
  'campaign_type',
  'contacts_list_source',
  'contacts_list_tags',
  'call_progress',
  'call_time_of_day_from',
  'call_time_of_day_to',
  'number_of_call_attempts',
  'retry_delay',
  'retry_delay_unit',
  'days_of_week',
  'time_zone',
  'allow_non_local_calls',
  'deleted_at',
  'started_at',
  'ended_at',
  'max_concurrent_calls',
  'prompt',
  'language',
  'responsiveness',
  'voice_speed',
  'max_silence_duration',
  'reminder_frequency_from',
  'agent_flow',
  'agent_dynamic_variables',
  'steps',
  'step_number',
  'webhook_url',
  'webhook_method',
  'webhook_timeout',
  'webhook_body',
  'webhook_headers',
  'depends_on_step',
  'success_condition',
  'retry_limit',
  'timeout',
  'max_retries',
  'variables',
  'predefinedVariables',
  'stepId',
  'is_template',
  'flow_mapping',
];

/** Keys that poison a naive merge into an object. */
const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

const hugeString = fc.constantFrom('x'.repeat(70_000), 'é'.repeat(100_000), '\ud800'.repeat(20_000), '0'.repeat(5_000));

const numbers = fc.oneof(
  fc.integer({ min: -10, max: 200 }),
  fc.constantFrom(0, -0, 1.5, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e20, -1e308, 1e308, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, leaning on the API's own field names and values. */
export function jsonValue(w: FuzzWorld): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...plausibleStrings(w)) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 3, arbitrary: numbers },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...FIELD_NAMES) },
    { weight: 1, arbitrary: fc.constantFrom(...POLLUTING_KEYS) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  );
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 6 })),
  })).value;
}

/** A JSON object body in the shape the API expects, fields drawn from its vocabulary. */
export function jsonObject(w: FuzzWorld): fc.Arbitrary<Record<string, unknown>> {
  return fc.dictionary(fc.constantFrom(...FIELD_NAMES), jsonValue(w), { minKeys: 1, maxKeys: 8 });
}

/** Bodies as bytes on the wire: JSON of generated values, and text no JSON encoder makes. */
export function rawBody(w: FuzzWorld): fc.Arbitrary<string | Uint8Array> {
  const depth = fc.integer({ min: 1, max: 200_000 });
  return fc.oneof(
    { weight: 6, arbitrary: jsonObject(w).map((v) => JSON.stringify(v)) },
    { weight: 3, arbitrary: jsonValue(w).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.array(jsonObject(w), { maxLength: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...FIELD_NAMES), hugeString).map(([k, v]) => JSON.stringify({ [k]: v })) },
    { weight: 1, arbitrary: depth.map((n) => '['.repeat(n) + ']'.repeat(n)) },
    { weight: 1, arbitrary: depth.map((n) => '{"metadata":'.repeat(n) + '{}' + '}'.repeat(n)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"__proto__": {"company_id": "x", "isAdmin": true}, "name": "p"}',
        '{"constructor": {"prototype": {"polluted": 1}}, "name": "p"}',
        '{"name": "\\ud800", "metadata": {"\\udfff": "\\u0000"}}',
        '{"call_progress": 1e999, "max_concurrent_calls": -1e999}',
        '{"name": "a", "name": "b"}',
        '\ufeff{"name": "bom"}',
        '{"name": "trunc',
        '',
        'null',
        '"just a string"',
        '12',
        'true',
        '[]',
        '{}',
        "{'name': 'single quotes'}",
        '{"name": NaN}',
      ),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  );
}

/** A path segment: ids of either company, unknown uuids, junk, broken percent-encoding. */
export function segment(w: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...idsOf(w.a)) },
    { weight: 3, arbitrary: fc.constantFrom(...idsOf(w.b)) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.stringMatching(/^[%0-9A-Fa-f]{1,12}$/) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%00', '%', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%2F', '%252F', '%2e%2e', '.', 'templates', 'a'.repeat(2000), '%F0%9F%98%80', '%20', '-1', '0', 'null'),
    },
  );
}

const QUERY_KEYS = ['workspace', 'workspace_id', 'limit', 'cursor', 'status', 'campaign_id', '__proto__', 'first', 'after', 'x'];

/** A query string: known keys and junk, repeated keys, raw and broken percent-encoding. */
export function queryString(w: FuzzWorld): fc.Arbitrary<string> {
  const value = fc.oneof(segment(w), fc.constantFrom('0', '-1', '201', '1e3', '99999999999999999999', 'ten', '', 'eyJ9', 'not-a-cursor', 'completed', 'ringing'));
  const pair = fc.tuple(fc.constantFrom(...QUERY_KEYS), value).map(([k, v]) => `${k}=${v}`);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 5, arbitrary: fc.array(pair, { minLength: 1, maxLength: 4 }).map((p) => `?${p.join('&')}`) },
    { weight: 1, arbitrary: fc.constantFrom('?', '?&&', '?=', '?limit', '?limit[]=1&limit[]=2', '?a=%00', '?a=%zz', '?workspace=%E0%A4%A') },
  );
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/JSON', 'application/vnd.api+json', 'application/json; charset=utf-16'];
const OTHER_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', ';;;', 'application/json; charset=nope', ''];

/** Credentials: company A's key (mostly, to get past authentication), its JWT, B's key, junk. */
export function authorization(w: FuzzWorld): fc.Arbitrary<string | undefined> {
  const jwtA = w.t.jwtFor(w.a.companyId);
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${w.a.key}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${jwtA}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        'Bearer',
        'Bearer ',
        `bearer ${w.a.key}`,
        `Bearer  ${w.a.key}`,
        `Basic ${w.a.key}`,
        `Bearer ${w.a.key}x`,
        `Bearer ${w.t.jwtFor(w.a.companyId, { exp: 1 })}`,
        `Bearer ${w.t.jwtFor(w.a.companyId, {}, 'another-secret-of-16-chars')}`,
        `Bearer ${w.t.jwtFor('00000000-0000-4000-8000-000000000000')}`,
        `Bearer ${w.t.jwtFor('not-a-uuid')}`,
        'Bearer a.b.c',
        `Bearer ${'k'.repeat(4000)}`,
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 60 }).map((s) => `Bearer ${s}`) },
  );
}

export function headers(w: FuzzWorld): fc.Arbitrary<Record<string, string>> {
  const contentType = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...JSON_TYPES.slice(0, 2)) }, { weight: 2, arbitrary: fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES) }, fc.constant(undefined));
  const requestId = fc.oneof(fc.constant(undefined), fc.string({ unit: 'grapheme-ascii', maxLength: 200 }), fc.constantFrom('abc-123', '../../x', 'a'.repeat(129), ' ', 'é'));
  return fc.record({ 'content-type': contentType, authorization: authorization(w), 'x-request-id': requestId }).map((h) =>
    Object.fromEntries(
      Object.entries(h)
        .filter((e): e is [string, string] => e[1] !== undefined)
        .map(([k, v]) => [k, latin1(v)]),
    ),
  );
}

/** Header values must be bytes: characters past U+00FF are replaced (fetch would refuse them). */
const latin1 = (value: string): string => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');

/** Fills a router path's `:params` with generated segments. */
export function fillPath(path: string, seg: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const names = path.match(/:\w+/g) ?? [];
  return fc.tuple(...names.map(() => seg)).map((values) => names.reduce((p, name, i) => p.replace(name, values[i]), path));
}
