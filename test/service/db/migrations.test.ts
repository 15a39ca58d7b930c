import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../../../src/db/orm';
import { migrationsList } from '../../../src/migrations';
import { createTestDatabase } from '../../support/harness';

describe('migrations', () => {
  it('build exactly the schema the entities describe', async () => {
    const db = await createTestDatabase();
    const orm = await MikroORM.init(ormOptions(db.url, 1));
    try {
      const drift = await orm.schema.getUpdateSchemaSQL({ wrap: false });
      expect(drift.trim()).toBe('');
      expect(await orm.migrator.getPendingMigrations()).toEqual([]);
    } finally {
      await orm.close();
      await db.drop();
    }
  });

  it('leave each number held by one company: the first to add it keeps it, the later rows are removed', async () => {
    const db = await createTestDatabase();
    const orm = await MikroORM.init(ormOptions(db.url, 1));
    try {
      const migrator = orm.migrator;
      const holder = migrationsList.findIndex((m) => m.name === 'Migration20261127090000_phone_number_holder');
      await migrator.down({ to: migrationsList[holder - 1].name });
      const em = orm.em.fork();
      const [first, later, other] = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000c'];
      await em.execute(`insert into companies (id, created_at, updated_at, name) values (?, now(), now(), 'first'), (?, now(), now(), 'later'), (?, now(), now(), 'other')`, [first, later, other]);
      const add = (company: string, number: string, at: string) =>
        em.execute(`insert into phone_numbers (id, created_at, updated_at, company_id, phone_number, country_code) values (gen_random_uuid(), ?, now(), ?, ?, '1')`, [at, company, number]);
      await add(later, '+14155550100', '2026-01-02T00:00:00Z');
      await add(first, '+14155550100', '2026-01-01T00:00:00Z');
      await add(other, '+14155550100', '2026-01-03T00:00:00Z');
      await add(later, '+14155550101', '2026-01-02T00:00:00Z');
      await migrator.up();
      const rows = await em.execute('select company_id, phone_number from phone_numbers order by phone_number');
      expect(rows).toEqual([
        { company_id: first, phone_number: '+14155550100' },
        { company_id: later, phone_number: '+14155550101' },
      ]);
    } finally {
      await orm.close();
      await db.drop();
    }
  });

  it('count the live contacts a table already holds, and go on counting the writes after', async () => {
    const db = await createTestDatabase();
    const orm = await MikroORM.init(ormOptions(db.url, 1));
    try {
      const counts = migrationsList.findIndex((m) => m.name === 'Migration20261128020000_contact_counts');
      await orm.migrator.down({ to: migrationsList[counts - 1].name });
      const em = orm.em.fork();
      const [one, two] = ['00000000-0000-4000-8000-00000000001a', '00000000-0000-4000-8000-00000000001b'];
      await em.execute(`insert into companies (id, created_at, updated_at, name) values (?, now(), now(), 'one'), (?, now(), now(), 'two')`, [one, two]);
      const add = (company: string, n: number, deleted: boolean) =>
        em.execute(
          `insert into contacts (id, created_at, updated_at, company_id, phone_number, number_country_code, metadata, deleted_at)
           select gen_random_uuid(), now(), now(), ?, '+1415555' || (3000 + i), '1', '{}', ${deleted ? 'now()' : 'null'} from generate_series(1, ?) i`,
          [company, n],
        );
      await add(one, 5, false);
      await add(one, 2, true);
      await add(two, 3, false);
      await orm.migrator.up();
      const kept = async () =>
        em.execute(`select company_id, (live + coalesce((select sum(delta) from contact_count_deltas d where d.company_id = b.company_id), 0))::int as n from contact_counts b order by company_id`);
      expect(await kept()).toEqual([
        { company_id: one, n: 5 },
        { company_id: two, n: 3 },
      ]);
      await em.execute(`update contacts set deleted_at = now() where company_id = ? and deleted_at is null and phone_number in ('+14155553001', '+14155553002')`, [two]);
      await em.execute('select contact_counts_rebuild()');
      expect(await kept()).toEqual([
        { company_id: one, n: 5 },
        { company_id: two, n: 1 },
      ]);
    } finally {
      await orm.close();
      await db.drop();
    }
  });

  it('seed the template catalogues', async () => {
    const db = await createTestDatabase();
    const orm = await MikroORM.init(ormOptions(db.url, 1));
    try {
      const [agents] = await orm.em.execute('select count(*)::int as n from ai_agents where is_template and company_id is null');
      const [flows] = await orm.em.execute('select count(*)::int as n from webhook_flows where is_template and company_id is null');
      expect(agents.n).toBeGreaterThanOrEqual(3);
      expect(flows.n).toBeGreaterThanOrEqual(5);
    } finally {
      await orm.close();
      await db.drop();
    }
  });
});
