import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../../../src/db/orm';
import { createTestDatabase } from '../../support/harness';

describe('migrations', () => {
  it('build exactly the schema the entities describe', async () => {
    const db = await createTestDatabase();
    const orm = await MikroORM.init(ormOptions(db.url, 1));
    try {
      const drift = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
      expect(drift.trim()).toBe('');
      expect(await orm.getMigrator().getPendingMigrations()).toEqual([]);
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
