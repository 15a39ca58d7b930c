import type { MikroORM } from '@mikro-orm/postgresql';
import { ReferenceKind } from '@mikro-orm/core';
import { loadModule, type ParseResult, parseSync } from 'libpg-query';
import { Company } from '../../src/entities';

/**
 * Statements that deliberately read or write across companies, by the name their leading
 * comment gives them (`/* sweep:calls.stale *\/ select ...`), each with its reason. On a
 * database distributed by company (docs/scaling.md) they are the multi-shard statements;
 * every other statement on a tenant table names its company.
 */
export const CROSS_COMPANY: Record<string, string> = {
  'sweep:calls.stale': 'the call sweep ends the calls of every company that outlived the maximum duration',
  'sweep:calls.stranded': 'the call sweep re-queues the placing of calls of any company a crash left dispatched but unplaced',
  'sweep:calls.reconcile': 'the call sweep asks the provider about the quiet live calls of every company (a callback lost in an outage)',
  'sweep:calls.waiting': 'the call sweep finds the companies whose waiting calls lost their dispatch',
  'sweep:calls.simulated': 'the call sweep takes the overdue steps of simulated calls of any company whose timers were lost with their process',
  'sweep:calls.recordings': 'the retention sweep queues the deletion of expired recordings of every company (RECORDING_RETENTION_DAYS)',
  'sweep:flow-steps.local': 'the flow step sweep queues the local steps of any company whose process died or lost them before their deadline',
  'sweep:campaigns.with-work': 'the campaign sweep finds the campaigns of every company with due contacts or ended calls to count',
  'upgrade:secrets-key': 'the start-up check of SECRETS_KEY decrypts one encrypted flow secret, of any company',
  'upgrade:sealed-secrets': 'the start-up upgrade encrypts the secrets of every company still stored in clear',
  'auth:api-key': 'an API key names its company only once found by its hash',
  'inbound:number': 'an incoming call names the number called; the number names the one company holding it',
  'provider:call-by-sid': "an incoming call's status callback names the call by the provider's sid only",
  'provider:call-by-id': "a provider callback, the relay's setup and the conversation it opens name the call by id only",
  'test:check': "a test's own check, which reads every row it may concern, whatever the company (it runs through the service's ORM too)",
};

/** Tenant tables (entities with a company relation): the column holding their company, and their primary key's columns. */
export type TenantTables = Map<string, { company: string; key: string[] }>;

export function tenantTables(orm: MikroORM): TenantTables {
  const tables: TenantTables = new Map();
  for (const meta of Object.values(orm.getMetadata().getAll())) {
    const company = meta.relations.find((p) => p.kind === ReferenceKind.MANY_TO_ONE && p.targetMeta?.class === Company);
    if (company) tables.set(meta.tableName, { company: company.fieldNames[0], key: meta.getPrimaryProps().flatMap((p) => p.fieldNames) });
  }
  return tables;
}

/** A statement's leading comment, its name in `CROSS_COMPANY`. */
export function statementName(sql: string): string | null {
  return /^\s*\/\*\s*(.+?)\s*\*\//.exec(sql)?.[1] ?? null;
}

type Node = Record<string, any>;

/** A tenant table as one query level names it. */
interface TenantRef {
  table: string;
  name: string;
  column: string;
}

/** Every node of the tree with its type name (libpg-query's JSON: `{TypeName: {...}}`). */
function* nodes(tree: unknown): Generator<[string, Node]> {
  if (Array.isArray(tree)) {
    for (const item of tree) yield* nodes(item);
    return;
  }
  if (tree === null || typeof tree !== 'object') return;
  for (const [key, value] of Object.entries(tree)) {
    if (/^[A-Z]/.test(key) && value && typeof value === 'object' && !Array.isArray(value)) yield [key, value as Node];
    yield* nodes(value);
  }
}

const strings = (fields: Node[] | undefined) => (fields ?? []).map((f) => f.String?.sval as string | undefined);

/** The conjuncts of a condition: `a AND (b AND c)` is [a, b, c]. */
function conjuncts(expr: Node | undefined): Node[] {
  if (!expr) return [];
  if (expr.BoolExpr?.boolop === 'AND_EXPR') return (expr.BoolExpr.args as Node[]).flatMap(conjuncts);
  return [expr];
}

/** The tenant tables of one FROM list (joins included) and the conditions of its joins. */
function fromItems(items: Node[] | undefined, tables: TenantTables, ctes: Set<string>, refs: TenantRef[], conditions: Node[]): void {
  for (const item of items ?? []) {
    if (item.RangeVar) addRef(item.RangeVar, tables, ctes, refs);
    if (item.JoinExpr) {
      fromItems([item.JoinExpr.larg, item.JoinExpr.rarg], tables, ctes, refs, conditions);
      conditions.push(...conjuncts(item.JoinExpr.quals));
    }
  }
}

function addRef(range: Node, tables: TenantTables, ctes: Set<string>, refs: TenantRef[]): void {
  const table = range.relname as string;
  const column = tables.get(table)?.company;
  if (column && !(ctes.has(table) && !range.schemaname)) refs.push({ table, name: range.alias?.aliasname ?? table, column });
}

/** The tenant table a column reference is the company column of, if it is one. */
function companyColumnOf(expr: Node | undefined, refs: TenantRef[]): TenantRef | null {
  const target = expr?.TypeCast ? expr.TypeCast.arg : expr;
  const fields = target?.ColumnRef?.fields as Node[] | undefined;
  if (!fields) return null;
  const [qualifier, column] = fields.length === 1 ? [null, ...strings(fields)] : strings(fields).slice(-2);
  const candidates = refs.filter((r) => r.column === column && (qualifier === null ? true : r.name === qualifier));
  return candidates.length === 1 ? candidates[0] : null;
}

/** Whether an expression reads a column of this level's tenant tables (then it names no company by itself). */
function readsLocalColumn(expr: Node | undefined, refs: TenantRef[]): boolean {
  for (const [type, node] of nodes({ expr })) {
    if (type !== 'ColumnRef') continue;
    const names = strings(node.fields);
    if (names.length === 1 || refs.some((r) => r.name === names[names.length - 2])) return true;
  }
  return false;
}

/**
 * What one condition tells of the tenant tables of its level: those it restricts to a
 * company (`t.company_id = $1`, `IN (...)`, `= ANY(...)`, `IS NULL` for a catalogue row), and
 * the co-located joins it makes (`a.company_id = b.company_id`).
 */
function restricts(condition: Node, refs: TenantRef[]): { restricted: Set<TenantRef>; joined: [TenantRef, TenantRef][] } {
  const restricted = new Set<TenantRef>();
  const joined: [TenantRef, TenantRef][] = [];
  const { A_Expr: op, NullTest: nullTest, SubLink: subLink, BoolExpr: bool } = condition;
  // `=`, and so `IN (...)` and `= ANY(...)`, whose operator is `=` too.
  if (op && strings(op.name)[0] === '=') {
    const left = companyColumnOf(op.lexpr, refs);
    const right = op.kind === 'AEXPR_OP' ? companyColumnOf(op.rexpr, refs) : null;
    if (left && right) joined.push([left, right]);
    else if (left && (op.kind !== 'AEXPR_OP' || !readsLocalColumn(op.rexpr, refs))) restricted.add(left);
    else if (right && !readsLocalColumn(op.lexpr, refs)) restricted.add(right);
  }
  if (nullTest?.nulltesttype === 'IS_NULL') {
    const ref = companyColumnOf(nullTest.arg, refs);
    if (ref) restricted.add(ref);
  }
  if (subLink?.subLinkType === 'ANY_SUBLINK') {
    const ref = companyColumnOf(subLink.testexpr, refs);
    if (ref) restricted.add(ref);
  }
  if (bool?.boolop === 'OR_EXPR') {
    // Restricted by an OR only when every branch restricts it.
    const branches = (bool.args as Node[]).map((arm) => {
      const inArm = new Set<TenantRef>();
      for (const c of conjuncts(arm)) for (const r of restricts(c, refs).restricted) inArm.add(r);
      return inArm;
    });
    for (const ref of refs) if (branches.every((b) => b.has(ref))) restricted.add(ref);
  }
  return { restricted, joined };
}

/** The problems of one query level (a SELECT, UPDATE, DELETE or INSERT, wherever it sits in the statement). */
function levelProblems(type: string, level: Node, tables: TenantTables, ctes: Set<string>): string[] {
  if (type === 'InsertStmt') {
    const column = tables.get(level.relation.relname)?.company;
    if (!column) return [];
    const columns = (level.cols as Node[] | undefined)?.map((c) => c.ResTarget.name) ?? [];
    return columns.includes(column) ? [] : [`INSERT INTO ${level.relation.relname} sets no ${column}`];
  }
  const refs: TenantRef[] = [];
  const conditions: Node[] = [...conjuncts(level.whereClause)];
  if (level.relation) addRef(level.relation, tables, ctes, refs);
  fromItems(level.fromClause ?? level.usingClause, tables, ctes, refs, conditions);
  const restricted = new Set<TenantRef>();
  const joins: [TenantRef, TenantRef][] = [];
  for (const condition of conditions) {
    const found = restricts(condition, refs);
    for (const r of found.restricted) restricted.add(r);
    joins.push(...found.joined);
  }
  // A co-located join carries a restriction from one side to the other.
  for (let grew = true; grew;) {
    grew = false;
    for (const [a, b] of joins) {
      if (restricted.has(a) !== restricted.has(b)) {
        restricted.add(a).add(b);
        grew = true;
      }
    }
  }
  return refs.filter((r) => !restricted.has(r)).map((r) => `${r.table}${r.name === r.table ? '' : ` (as ${r.name})`} has no ${r.column} filter`);
}

/**
 * An UPDATE or DELETE of one tenant table whose only condition is its primary key: what
 * MikroORM's unit of work writes at flush for entities it loaded (through a statement this
 * audit checks) or created. Allowed, as the one rule by shape: the ORM cannot add the company
 * to these conditions without a primary key that includes it (docs/scaling.md, "What is left").
 */
function isWriteByPrimaryKey(statement: Node, tables: TenantTables): boolean {
  const [type, level] = Object.entries(statement)[0] ?? [];
  if ((type !== 'UpdateStmt' && type !== 'DeleteStmt') || level.fromClause || level.usingClause || level.withClause) return false;
  const key = tables.get(level.relation.relname)?.key;
  const equated = conjuncts(level.whereClause).map((c) => {
    const fields = c.A_Expr?.lexpr?.ColumnRef?.fields as Node[] | undefined;
    return strings(c.A_Expr?.name)[0] === '=' && fields?.length === 1 && !!c.A_Expr.rexpr && !readsAnyColumn(c.A_Expr.rexpr) ? strings(fields)[0] : null;
  });
  return !!key && equated.length === key.length && key.every((column) => equated.includes(column));
}

function readsAnyColumn(expr: Node): boolean {
  for (const [type] of nodes({ expr })) if (type === 'ColumnRef') return true;
  return false;
}

const LEVELS = new Set(['SelectStmt', 'UpdateStmt', 'DeleteStmt', 'InsertStmt']);

/**
 * Why a statement would not route to one company's shard on a database distributed by
 * company: each tenant table it reads or changes, at every level (CTEs, subqueries,
 * joins), must be restricted to a company or joined on the company column to one that is,
 * and each row it inserts must say its company. Empty when it is fine (or not about tenant tables).
 */
export function companyFilterProblems(sql: string, tables: TenantTables): string[] {
  let tree: ParseResult;
  try {
    tree = parseSync(sql);
  } catch (err) {
    return [`unparsable: ${(err as Error).message}`];
  }
  const statement = tree.stmts?.length === 1 ? tree.stmts[0].stmt : undefined;
  if (statement && isWriteByPrimaryKey(statement, tables)) return [];
  const ctes = new Set<string>();
  for (const [type, node] of nodes(tree)) if (type === 'CommonTableExpr') ctes.add(node.ctename);
  const problems: string[] = [];
  for (const [type, node] of nodes(tree)) if (LEVELS.has(type)) problems.push(...levelProblems(type, node, tables, ctes));
  return problems;
}

/** Loads the parser (WebAssembly), once per test file. */
export const loadParser = loadModule;

/**
 * Each statement's problems, by its tenant tables (as JSON) and its text: the files of a worker
 * run mostly the same statements, and a parse and walk of each at every service's close was
 * about 1% of the suites' CPU.
 */
const audited = new Map<string, Map<string, string[]>>();

/**
 * The statements among `statements` that lack the company filter and are not excepted by
 * name, each with its problems; and named statements the exception list does not know.
 */
export function auditStatements(statements: Iterable<string>, tables: TenantTables): string[] {
  const tablesKey = JSON.stringify([...tables]);
  let known = audited.get(tablesKey);
  if (!known) audited.set(tablesKey, (known = new Map()));
  const failures: string[] = [];
  for (const sql of statements) {
    const name = statementName(sql);
    if (name !== null && name in CROSS_COMPANY) continue;
    let problems = known.get(sql);
    if (!problems) known.set(sql, (problems = companyFilterProblems(sql, tables)));
    if (problems.length > 0) failures.push(`${problems.join('; ')}${name === null ? '' : ` (named "${name}", not in CROSS_COMPANY)`}:\n    ${sql.replace(/\s+/g, ' ').slice(0, 400)}`);
  }
  return failures;
}
