import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import { jsonObject, jsonValue, NASTY_STRINGS } from './arbitraries';
import { type FuzzWorld, fc, idsOf } from './support';
import { PROJECT_ROOT } from '../../../src/project';

/** The schema as published (schema.graphql; a test keeps it in step with the code). */
export const schema = buildSchema(readFileSync(path.join(PROJECT_ROOT, 'schema.graphql'), 'utf8'));

export interface Operation {
  kind: 'query' | 'mutation' | 'subscription';
  /** Root fields selected (a mutation has one, so that "refused" means "wrote nothing"). */
  fields: string[];
  query: string;
  variables: Record<string, unknown>;
}

interface Piece {
  text: string;
  definitions: string[];
  variables: [string, unknown][];
}

const join = (pieces: Piece[], sep: string): Piece => ({
  text: pieces.map((p) => p.text).join(sep),
  definitions: pieces.flatMap((p) => p.definitions),
  variables: pieces.flatMap((p) => p.variables),
});

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A JavaScript value as a GraphQL literal of `type` (objects keep only keys that are names). */
function literal(value: unknown, type: GraphQLInputType): string {
  const named = getNamedType(type);
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, isListType(type) || isNonNullType(type) ? type.ofType : type)).join(', ')}]`;
  if (typeof value === 'object') {
    const fields = isInputObjectType(named) ? named.getFields() : {};
    const entries = Object.entries(value).filter(([k]) => NAME.test(k));
    return `{${entries.map(([k, v]) => `${k}: ${literal(v, fields[k]?.type ?? named)}`).join(', ')}}`;
  }
  if (typeof value === 'string' && isEnumType(named) && NAME.test(value)) return value;
  if (typeof value === 'number' && !Number.isFinite(value)) return '0';
  return JSON.stringify(value);
}

export class DocumentArbitraries {
  private readonly strings: fc.Arbitrary<string>;

  constructor(private readonly w: FuzzWorld) {
    this.strings = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...idsOf(w.a), ...idsOf(w.b), 'default', '+14155552671', '(415) 555-2671', 'https://example.com/x', 'Ada', 'POST', '09:00:00', 'UTC') },
      { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    );
  }

  /** A value for `type`, mostly of the right shape, sometimes of any shape. */
  value(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
    const wrong = jsonValue(this.w);
    const right = this.rightValue(type, depth);
    return fc.oneof({ weight: 12, arbitrary: right }, { weight: 1, arbitrary: wrong });
  }

  private rightValue(type: GraphQLInputType, depth: number): fc.Arbitrary<unknown> {
    if (isNonNullType(type)) return this.rightValue(type.ofType, depth);
    if (isListType(type)) return fc.array(this.value(type.ofType, depth + 1), { maxLength: depth > 2 ? 0 : 3 });
    if (isEnumType(type)) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) }, fc.constantFrom('NOPE', 'pstn-queued'));
    if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      const model = Object.fromEntries(fields.map((f) => [f.name, this.value(f.type, depth + 1)]));
      const required = fields.filter((f) => isNonNullType(f.type)).map((f) => f.name);
      return fc.record(model, { requiredKeys: required });
    }
    switch (type.name) {
      case 'Int':
        return fc.oneof(fc.integer({ min: -2, max: 150 }), fc.constantFrom(2 ** 31 - 1, -(2 ** 31), 0));
      case 'Float':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'Boolean':
        return fc.boolean();
      case 'JSON':
        return jsonValue(this.w);
      case 'JSONObject':
        return jsonObject(this.w);
      case 'DateTimeISO':
        return fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constantFrom('2026-02-30T00:00:00Z', 'yesterday'),
        );
      default:
        return this.strings;
    }
  }

  /** Arguments of a field: each required one (mostly), optional ones sometimes, as variables or inline. */
  private args(field: GraphQLField<unknown, unknown>, at: string, inline: boolean): fc.Arbitrary<Piece> {
    if (field.args.length === 0) return fc.constant({ text: '', definitions: [], variables: [] });
    const one = (arg: GraphQLArgument): fc.Arbitrary<Piece | null> => {
      const present = isNonNullType(arg.type) && arg.defaultValue === undefined ? fc.constant(true) : fc.boolean();
      return fc.tuple(present, this.value(arg.type)).map(([p, v]): Piece | null => {
        if (!p) return null;
        if (inline) return { text: `${arg.name}: ${literal(v, arg.type)}`, definitions: [], variables: [] };
        const name = `${at}_${arg.name}`;
        return { text: `${arg.name}: $${name}`, definitions: [`$${name}: ${String(arg.type)}`], variables: [[name, v]] };
      });
    };
    return fc.tuple(...field.args.map(one)).map((parts) => {
      const given = join(
        parts.filter((p): p is Piece => p !== null),
        ', ',
      );
      return { ...given, text: given.text ? `(${given.text})` : '' };
    });
  }

  /** A selection set of `type`: one to four fields, aliased, nested up to three levels. */
  private selection(type: GraphQLOutputType, at: string, inline: boolean, depth: number): fc.Arbitrary<Piece> {
    const named = getNamedType(type);
    if (isLeafType(named)) return fc.constant({ text: '', definitions: [], variables: [] });
    if (!isObjectType(named)) return fc.constant({ text: ' { __typename }', definitions: [], variables: [] });
    const fields = Object.values((named as GraphQLObjectType).getFields()).filter((f) => depth < 3 || isLeafType(getNamedType(f.type)));
    if (fields.length === 0) return fc.constant({ text: ' { __typename }', definitions: [], variables: [] });
    return fc.subarray(fields, { minLength: 1, maxLength: Math.min(4, fields.length) }).chain((chosen) =>
      fc.tuple(...chosen.map((f, i) => this.field(f, `${at}_${i}`, inline, depth + 1))).map((parts) => {
        const inner = join(parts, ' ');
        return { ...inner, text: ` { ${inner.text} }` };
      }),
    );
  }

  private field(field: GraphQLField<unknown, unknown>, at: string, inline: boolean, depth: number): fc.Arbitrary<Piece> {
    return fc.tuple(this.args(field, at, inline), this.selection(field.type, at, inline, depth)).map(([args, sel]) => ({
      text: `${at}: ${field.name}${args.text}${sel.text}`,
      definitions: [...args.definitions, ...sel.definitions],
      variables: [...args.variables, ...sel.variables],
    }));
  }

  /** A valid-shaped operation on the schema's root type `kind`, with random arguments. */
  operation(kind: Operation['kind']): fc.Arbitrary<Operation> {
    const root = kind === 'query' ? schema.getQueryType()! : kind === 'mutation' ? schema.getMutationType()! : schema.getSubscriptionType()!;
    const fields = Object.values(root.getFields());
    const count = kind === 'query' ? 3 : 1;
    return fc.tuple(fc.subarray(fields, { minLength: 1, maxLength: count }), fc.boolean()).chain(([chosen, inline]) =>
      fc.tuple(...chosen.map((f, i) => this.field(f, `r${i}`, inline, 0))).map((parts) => {
        const all = join(parts, ' ');
        const defs = all.definitions.length ? `(${all.definitions.join(', ')})` : '';
        return { kind, fields: chosen.map((_, i) => `r${i}`), query: `${kind} Fuzz${defs} {${all.text} }`, variables: Object.fromEntries(all.variables) };
      }),
    );
  }

  /** Documents that do not parse or break a limit: cut, spliced with junk, too deep, too long. */
  broken(): fc.Arbitrary<string> {
    const valid = fc.oneof(this.operation('query'), this.operation('mutation')).map((o) => o.query);
    return fc.oneof(
      fc.tuple(valid, fc.nat()).map(([q, n]) => q.slice(0, n % Math.max(q.length, 1))),
      fc.tuple(valid, fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 5 })).map(([q, n, junk]) => {
        const at = n % Math.max(q.length, 1);
        return q.slice(0, at) + junk + q.slice(at);
      }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.integer({ min: 11, max: 3000 }).map((n) => `{ ${'campaigns { edges { node { calls { edges { node { campaign '.repeat(Math.ceil(n / 7))}id${' } } } } } } }'.repeat(Math.ceil(n / 7))} }`),
      fc.integer({ min: 1, max: 8000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: phoneNumbers { id }`).join(' ')} }`),
      fc.constantFrom(
        '',
        '{',
        '}',
        'query',
        'mutation { }',
        'subscription',
        '{ __schema { types { name } } }',
        'query A { phoneNumbers { id } } query A { phoneNumbers { id } }',
        '{ phoneNumbers { id } } { x }',
        '# only a comment',
      ),
    );
  }
}
