import { type EntityClass, type EntityMetadata, type MetadataStorage, type Platform, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { z } from 'zod';
import type { StatementListener } from './orm';
import { storableJson } from './storable';

/**
 * A view as a hot read answers it: instants as ISO 8601 text (UTC, milliseconds, what REST
 * writes), every other field as the view holds it.
 */
export type StoredView<V> = { [K in keyof V]: V[K] extends Date ? string : Date extends V[K] ? Exclude<V[K], Date> | string : V[K] };

/** Where hot reads run: a pg pool, the ORM's metadata and platform their select lists are built from, and its type parsers. */
export interface ViewReads {
  pool: pg.Pool;
  metadata: MetadataStorage;
  platform: Platform;
  /** The ORM connection's parsers: dates, timestamps and intervals stay text, as the ORM's entities hold them. */
  types: pg.CustomTypesConfig;
  /** Told each statement's text once it has run, as the ORM's `onStatement` is (the tests' statement audit). */
  onStatement?: StatementListener;
}

/** Hot reads on `pool`, over `orm`'s metadata, parsing values as `orm`'s connection does. */
export function viewReads(orm: MikroORM, pool: pg.Pool, onStatement?: StatementListener): ViewReads {
  const { types } = orm.em.getConnection().getConnectionOptions() as { types: pg.CustomTypesConfig };
  return { pool, metadata: orm.getMetadata(), platform: orm.em.getPlatform(), types, onStatement };
}

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The column of one view field, aliased as the field: the property of the same name, or, for
 * `xId`, the property `x` (a relation's foreign key, or the scalar holding the id, as a
 * campaign's `workspace`). Timestamps as ISO text, truncated to milliseconds as a Date would be.
 */
function columnOf(meta: EntityMetadata, key: string, quote: (id: string) => string, { table, prefix = '' }: ColumnsOf): string {
  const prop = meta.properties[key as never] ?? (key.endsWith('Id') ? meta.properties[key.slice(0, -2) as never] : undefined);
  const stored = prop && prop.persist !== false && !prop.formula && (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE);
  if (!stored) throw new Error(`${meta.className} has no stored column for the view field ${key}`);
  const field = table ? `${quote(table)}.${quote(prop.fieldNames[0])}` : quote(prop.fieldNames[0]);
  const value = prop.kind === ReferenceKind.SCALAR && prop.runtimeType === 'Date' ? `to_char(${field} AT TIME ZONE 'UTC', ${ISO_UTC})` : field;
  return `${value} AS ${quote(prefix + key)}`;
}

/** Where the columns of a select list come from, in a statement joining tables. */
export interface ColumnsOf {
  /** The table (or its alias) each column is qualified with. */
  table?: string;
  /** Put before each alias (`contact:` for `contact:firstname`), so that two tables' fields do not collide. */
  prefix?: string;
}

/**
 * The columns of `view` over `entity`'s table, each aliased as its view field, instants as
 * ISO text (`columnOf`), from the ORM's metadata: a select list, or a RETURNING list whose
 * rows are stored views. In a join, `of` qualifies each column and prefixes its alias.
 */
export function viewColumns(reads: ViewReads, entity: EntityClass<object>, view: z.ZodObject, of: ColumnsOf = {}): string {
  const meta = reads.metadata.get(entity.name);
  const quote = (id: string) => reads.platform.quoteIdentifier(id);
  return Object.keys(view.shape)
    .map((key) => columnOf(meta, key, quote, of))
    .join(', ');
}

/**
 * A read of `entity`'s rows matching `where` (SQL with `$n` placeholders) as views of
 * `view`: one statement, prepared once per connection under `name` (null: planned for its
 * values at each run, for a statement whose best plan depends on them), whose rows are the
 * views (each column aliased as its field), with no entity, identity map, unit of work or
 * query builder in between. Its text is built on first use from the ORM's metadata.
 */
export function viewQuery<V>(name: string | null, entity: EntityClass<object>, view: z.ZodObject, where: string) {
  return builtQuery<StoredView<V>>(name, (reads) => selectText(reads, entity, view, where));
}

const selectText = (reads: ViewReads, entity: EntityClass<object>, view: z.ZodObject, where: string) =>
  `SELECT ${viewColumns(reads, entity, view)} FROM ${reads.platform.quoteIdentifier(reads.metadata.get(entity.name).tableName)} WHERE ${where}`;

/**
 * A read whose text `text` builds on first use from the ORM's metadata (the select lists of
 * `viewColumns`), answering rows of `Row`: prepared once per connection under `name`, or
 * planned at each run when null (`viewQuery`).
 */
export function builtQuery<Row>(name: string | null, text: (reads: ViewReads) => string) {
  const texts = new WeakMap<MetadataStorage, string>();
  return async (reads: ViewReads, params: unknown[]): Promise<Row[]> => {
    let built = texts.get(reads.metadata);
    if (!built) {
      built = text(reads);
      texts.set(reads.metadata, built);
    }
    const { rows } = await reads.pool.query<Row & pg.QueryResultRow>({ name: name ?? undefined, text: built, values: params, types: reads.types });
    reads.onStatement?.(built);
    return rows;
  };
}

/**
 * The reads of one list (`builtQuery`), one per `key` (its combination of filters and
 * columns): each prepared under `${prefix}-${n}` when first used, up to `max` of them, so
 * that the combinations clients ask for cannot grow a connection's prepared statements
 * without bound; past them, or with `prepared` false (a read whose plan depends on its
 * values), planned at each run and not kept. `text` is called only when the read is made.
 */
export function keyedReads<Row>(prefix: string, max = 100) {
  const known = new Map<string, ReturnType<typeof builtQuery<Row>>>();
  return (key: string, text: (reads: ViewReads) => string, prepared = true) => {
    const kept = known.get(key);
    if (kept) return kept;
    if (!prepared || known.size >= max) return builtQuery<Row>(null, text);
    const read = builtQuery<Row>(`${prefix}-${known.size}`, text);
    known.set(key, read);
    return read;
  };
}

/** `keyedReads` of `entity`'s rows as views (`viewQuery`): `view` is called only when the read is made. */
export function pageReads<V>(prefix: string, entity: EntityClass<object>, max = 100) {
  const reads = keyedReads<StoredView<V>>(prefix, max);
  return (key: string, view: () => z.ZodObject, where: string, prepared = true) => reads(key, (r) => selectText(r, entity, view(), where), prepared);
}

/**
 * Where a hot statement runs, as its caller says: in the transaction the caller holds open
 * (`within(tx)`), so that it commits or rolls back with the rest, or on its own (`alone`), in
 * a transaction of its own on the reads' pool. Never inferred from the EntityManager's state.
 */
export interface Within {
  readonly tx: EntityManager | null;
}

/** In the transaction open on `tx` (`em.transactional`'s EntityManager). */
export const within = (tx: EntityManager): Within => ({ tx });

/** On its own: one statement, one commit, on the reads' pool. */
export const alone: Within = { tx: null };

/**
 * A statement of an engine's hot path, written once with `?` placeholders (every `?` is one;
 * a text built from the ORM's metadata, as `viewColumns` is, is built on first use), answering
 * rows of `Row` (its columns' aliases, parsed as the ORM's connection parses them).
 * `within(tx)`, it is part of that transaction; `alone`, it runs on the reads' pool, prepared
 * once per connection under `name`: no query building, the values sent apart from the text,
 * and no parse and plan by PostgreSQL after its first runs.
 */
export function hotStatement<Row extends object>(name: string, text: string | ((reads: ViewReads) => string)) {
  const texts = statementTexts(text);
  return async (on: Within, reads: ViewReads, params: unknown[]): Promise<Row[]> => {
    const { plain, numbered } = texts(reads);
    return on.tx ? on.tx.execute<Row[]>(plain, params) : onPool<Row>(reads, name, numbered, params);
  };
}

/** A statement's text as written (`?` placeholders, for the ORM) and numbered (`$n`, for pg), built once per metadata. */
function statementTexts(text: string | ((reads: ViewReads) => string)) {
  const texts = new WeakMap<MetadataStorage, { plain: string; numbered: string }>();
  return (reads: ViewReads) => {
    let built = texts.get(reads.metadata);
    if (!built) {
      const plain = typeof text === 'string' ? text : text(reads);
      let n = 0;
      built = { plain, numbered: plain.replace(/\?/g, () => `$${(n += 1)}`) };
      texts.set(reads.metadata, built);
    }
    return built;
  };
}

async function onPool<Row extends object>(reads: ViewReads, name: string, numbered: string, params: unknown[]): Promise<Row[]> {
  const { rows } = await reads.pool.query<Row & pg.QueryResultRow>({ name, text: numbered, values: params, types: reads.types });
  reads.onStatement?.(numbered);
  return rows;
}

/** Most rows one shared statement carries. */
const SHARED_ROWS = 100;

/** A row a shared statement answers: the `ord` of the input row it is for, and its own columns. */
type Answered<Row> = Row & { ord: number };

/** A row waiting for its company's next shared statement. */
interface Waiting<Input, Row> {
  row: Input;
  resolve: (rows: Row[]) => void;
  reject: (err: unknown) => void;
}

/** One company's rows of one shared statement: those waiting, and whether a statement is in flight. */
interface Lane<Input, Row> {
  waiting: Waiting<Input, Row>[];
  busy: boolean;
}

export interface SharedStatementOptions<Input> {
  /**
   * The statement's parameters, from its rows (a JSON array) and the company's id, in the
   * order of the text's `?`; by default the rows then the company.
   */
  params?: (rows: string, companyId: string) => unknown[];
  /**
   * A field no two rows of one statement share: a row whose value is already in the statement
   * waits for the next one, so that rows of one record are written one after the other, in
   * the order they came (an UPDATE ... FROM would apply only one of them).
   */
  distinct?: keyof Input & string;
}

/**
 * A hot statement over rows of one company, whose concurrent calls share statements, and so
 * commits: docs/performance.md, "Shared commits". Its text reads the rows as a JSON array of
 * objects (`jsonb_to_recordset`), each with its index as `ord`, and every row it answers
 * carries the `ord` of the row it is for; `options.params` says where the rows and the
 * company go. A call answers the rows of its own row.
 *
 * `within(tx)`, the row is written at once, alone, in that transaction. `alone`, the
 * first row of a company goes at once, on the reads' pool, and the rows of that company that
 * come while it is in flight wait and then go together, up to SHARED_ROWS in one statement
 * (one commit): no waiting when idle, fewer statements and commits under load. A company's
 * rows never share a statement with another's, so each statement stays on one shard of a
 * database distributed by company (docs/scaling.md). When a shared statement fails, which
 * writes none of its rows, each of its rows is tried again alone, so that one row's failure
 * is its own. The rows' strings are written as PostgreSQL can store them (`storableJson`):
 * inputs were refused with a NUL or an unpaired surrogate before, and what comes from outside
 * (a receiver's answer, a model's words) gets U+FFFD in their place.
 */
export function sharedStatement<Input extends object, Row extends object>(name: string, text: string | ((reads: ViewReads) => string), options: SharedStatementOptions<Input> = {}) {
  const texts = statementTexts(text);
  const lanes = new WeakMap<ViewReads, Map<string, Lane<Input, Row>>>();
  const { params: paramsOf = (rows, companyId) => [rows, companyId], distinct } = options;
  const byRow = (rows: Input[], answered: Answered<Row>[]) => {
    const answers = rows.map((): Row[] => []);
    for (const row of answered) answers[row.ord].push(row);
    return answers;
  };
  const params = (rows: Input[], companyId: string) => paramsOf(storableJson(rows.map((row, ord) => ({ ...row, ord }))), companyId);
  const run = async (reads: ViewReads, companyId: string, batch: Waiting<Input, Row>[]): Promise<void> => {
    const rows = batch.map((w) => w.row);
    try {
      const answers = byRow(rows, await onPool<Answered<Row>>(reads, name, texts(reads).numbered, params(rows, companyId)));
      batch.forEach((waiting, i) => waiting.resolve(answers[i]));
    } catch (err) {
      if (batch.length === 1) batch[0].reject(err);
      else for (const waiting of batch) await run(reads, companyId, [waiting]);
    }
  };
  /** Takes the next statement's rows from those waiting: the first SHARED_ROWS, a `distinct` value once. */
  const take = (lane: Lane<Input, Row>): Waiting<Input, Row>[] => {
    if (!distinct) return lane.waiting.splice(0, SHARED_ROWS);
    const taken: Waiting<Input, Row>[] = [];
    const left: Waiting<Input, Row>[] = [];
    const values = new Set<unknown>();
    for (const w of lane.waiting) {
      const value = w.row[distinct];
      if (taken.length < SHARED_ROWS && !values.has(value)) {
        values.add(value);
        taken.push(w);
      } else left.push(w);
    }
    lane.waiting = left;
    return taken;
  };
  const drain = (reads: ViewReads, companyId: string, lane: Lane<Input, Row>, ofReads: Map<string, Lane<Input, Row>>): void => {
    if (lane.waiting.length === 0) {
      ofReads.delete(companyId);
      return;
    }
    lane.busy = true;
    void run(reads, companyId, take(lane)).finally(() => {
      lane.busy = false;
      drain(reads, companyId, lane, ofReads);
    });
  };
  return async (on: Within, reads: ViewReads, companyId: string, row: Input): Promise<Row[]> => {
    if (on.tx) return byRow([row], await on.tx.execute<Answered<Row>[]>(texts(reads).plain, params([row], companyId)))[0];
    let ofReads = lanes.get(reads);
    if (!ofReads) lanes.set(reads, (ofReads = new Map<string, Lane<Input, Row>>()));
    let lane = ofReads.get(companyId);
    if (!lane) ofReads.set(companyId, (lane = { waiting: [], busy: false }));
    const answer = new Promise<Row[]>((resolve, reject) => lane.waiting.push({ row, resolve, reject }));
    if (!lane.busy) drain(reads, companyId, lane, ofReads);
    return answer;
  };
}
