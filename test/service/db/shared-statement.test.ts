import { randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { ormOptions } from '../../../src/db/orm';
import { alone, sharedStatement, type ViewReads, viewReads, within } from '../../../src/db/statements';
import { createTestDatabase } from '../../support/harness';

// `sharedStatement` (docs/performance.md, "Shared commits"): the rows of one company in flight
// together share a statement and its commit, and each caller is answered for its own row.
// Rows inserted by one statement share its transaction, so `xmin` says which went together.

const INSERT = sharedStatement<{ id: number; value: string }, { id: number; value: string; tx: string }>(
  'shared-rows-insert',
  `WITH given AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(ord int, id int, value text)),
   inserted AS (INSERT INTO shared_rows (id, company_id, value) SELECT id, ?::uuid, value FROM given WHERE value <> 'skip' RETURNING id, value, xmin::text AS tx)
   SELECT g.ord, i.id, i.value, i.tx FROM inserted i JOIN given g ON g.id = i.id`,
);

const APPEND = sharedStatement<{ id: number; value: string }, { value: string }>(
  'shared-rows-append',
  `WITH given AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(ord int, id int, value text))
   UPDATE shared_rows r SET value = r.value || g.value FROM given g WHERE r.id = g.id AND r.company_id = ?::uuid RETURNING g.ord, r.value`,
  { distinct: 'id' },
);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
let pool: pg.Pool;
let reads: ViewReads;
let statements: string[];

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await MikroORM.init(ormOptions(db.url, 2));
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  reads = viewReads(orm, pool, (sql) => statements.push(sql));
  await pool.query(`CREATE TABLE shared_rows (id int PRIMARY KEY, company_id uuid NOT NULL, value text NOT NULL CHECK (value <> 'bad'))`);
});

beforeEach(async () => {
  statements = [];
  await pool.query('TRUNCATE shared_rows');
});

afterAll(async () => {
  await pool.end();
  await orm.close();
  await db.drop();
});

const insert = (companyId: string, id: number, value = `v${id}`) => INSERT(alone, reads, companyId, { id, value });

const stored = async () => (await pool.query('SELECT id, company_id, value, xmin::text AS tx FROM shared_rows ORDER BY id')).rows;

describe('a shared statement', () => {
  it('writes the first row of a company at once and the rows that come while it is in flight together, each answered its own row', async () => {
    const company = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => insert(company, i + 1)));

    expect(answers.map((rows) => rows.map((r) => [r.id, r.value]))).toEqual(Array.from({ length: 20 }, (_, i) => [[i + 1, `v${i + 1}`]]));
    expect(statements).toHaveLength(2);
    const rows = await stored();
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(2);
    expect(rows.filter((r) => r.tx === rows[0].tx).map((r) => r.id)).toEqual([1]);
  });

  it("never carries two companies' rows in one statement", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await Promise.all(Array.from({ length: 10 }, (_, i) => [insert(a, i + 1), insert(b, i + 101)]).flat());

    const rows = await stored();
    expect(rows).toHaveLength(20);
    const companiesByTx = new Map<string, Set<string>>();
    for (const row of rows) companiesByTx.set(row.tx, (companiesByTx.get(row.tx) ?? new Set()).add(row.company_id));
    expect([...companiesByTx.values()].every((companies) => companies.size === 1)).toBe(true);
    expect(rows.filter((r) => r.id > 100).every((r) => r.company_id === b)).toBe(true);
    expect(statements).toHaveLength(4);
  });

  it("fails only the failing row's call: the rows it went with are tried again alone and stored", async () => {
    const company = randomUUID();
    const calls = [insert(company, 1), insert(company, 2), insert(company, 3, 'bad'), insert(company, 4), insert(company, 5)];
    const settled = await Promise.allSettled(calls);

    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ code: '23514' });
    expect((await stored()).map((r) => r.id)).toEqual([1, 2, 4, 5]);
  });

  it('answers no rows for a row the statement does not write, and the rows it went with theirs', async () => {
    const company = randomUUID();
    const answers = await Promise.all([insert(company, 1), insert(company, 2), insert(company, 3, 'skip'), insert(company, 4)]);

    expect(answers.map((rows) => rows.map((r) => r.id))).toEqual([[1], [2], [], [4]]);
    expect(statements).toHaveLength(2);
  });

  it('writes the rows of one record (its `distinct` field) one statement after the other, in the order they came', async () => {
    const company = randomUUID();
    await Promise.all([insert(company, 1, 'a'), insert(company, 2, 'x')]);
    statements = [];
    const append = (id: number, value: string) => APPEND(alone, reads, company, { id, value });
    const answers = await Promise.all([append(1, 'b'), append(1, 'c'), append(2, 'y'), append(1, 'd')]);

    expect(answers.map((rows) => rows.map((r) => r.value))).toEqual([['ab'], ['abc'], ['xy'], ['abcd']]);
    expect(statements).toHaveLength(3);
  });

  it('writes within the transaction its caller names, alone and at once', async () => {
    const company = randomUUID();
    const em = orm.em.fork();
    await em.begin();
    const rows = await INSERT(within(em), reads, company, { id: 9, value: 'v9' });
    expect(rows).toMatchObject([{ id: 9, value: 'v9' }]);
    await em.rollback();

    expect(await stored()).toEqual([]);
    expect(statements).toEqual([]);
  });
});
