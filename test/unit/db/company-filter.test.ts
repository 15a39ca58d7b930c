import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../../../src/db/orm';
import { auditStatements, companyFilterProblems, CROSS_COMPANY, loadParser, type TenantTables, tenantTables } from '../../support/statement-audit';

// The rule the statement audit applies to every statement the suites run (each test service's
// `close()`, test/support/harness.ts; docs/scaling.md). Here on statements written by hand, so
// that each way of passing or failing it is shown to work.

let tables: TenantTables;

beforeAll(async () => {
  await loadParser();
  // Entity discovery only: the ORM never connects.
  const orm = MikroORM.initSync(ormOptions('postgresql://unused@127.0.0.1:1/unused', 1));
  tables = tenantTables(orm);
});

const problems = (sql: string) => companyFilterProblems(sql, tables);

describe('the tenant tables', () => {
  it('are the entities with a company relation, with their company column', () => {
    expect([...tables.keys()].sort()).toEqual([
      'agent_scenarios',
      'agent_test_runs',
      'ai_agent_versions',
      'ai_agents',
      'api_keys',
      'calls',
      'campaign_contacts',
      'campaigns',
      'contacts',
      'do_not_call_numbers',
      'phone_numbers',
      'webhook_executions',
      'webhook_flows',
    ]);
    expect(tables.get('calls')).toEqual({ company: 'company_id', key: ['id'] });
    expect(tables.get('campaign_contacts')).toEqual({ company: 'company_id', key: ['campaign_id', 'contact_id'] });
  });
});

describe('a statement on tenant tables', () => {
  it('fails without the company filter, and passes with it', () => {
    expect(problems('select * from calls where id = $1')).toEqual(['calls has no company_id filter']);
    expect(problems('select * from calls c where c.id = $1 and c.company_id = $2')).toEqual([]);
    expect(problems('select * from calls where company_id = any($1)')).toEqual([]);
    expect(problems('select * from calls where company_id in ($1, $2) and call_status = $3')).toEqual([]);
  });

  it('is not restricted by a condition that compares the company with another column of its own row', () => {
    expect(problems('select * from calls c where c.company_id = c.ai_agent_id')).toEqual(['calls (as c) has no company_id filter']);
  });

  it('passes a join only when every joined tenant table is restricted or joined on the company', () => {
    expect(problems('select * from calls c join ai_agents a on a.id = c.ai_agent_id where c.company_id = $1')).toEqual(['ai_agents (as a) has no company_id filter']);
    expect(problems('select * from calls c join ai_agents a on a.id = c.ai_agent_id and a.company_id = c.company_id where c.company_id = $1')).toEqual([]);
    expect(problems('select * from calls c join ai_agents a on a.company_id = c.company_id where a.id = $1')).toEqual([
      'calls (as c) has no company_id filter',
      'ai_agents (as a) has no company_id filter',
    ]);
  });

  it('checks every level: CTEs, subqueries and the rows an INSERT ... SELECT reads', () => {
    expect(problems('with x as (select id from calls where id = $1) update calls c set call_status = $2 from x where c.id = x.id and c.company_id = $3')).toEqual(['calls has no company_id filter']);
    expect(problems('select * from campaigns c where c.company_id = $1 and exists (select 1 from campaign_contacts cc where cc.campaign_id = c.id)')).toEqual([
      'campaign_contacts (as cc) has no company_id filter',
    ]);
    expect(problems('select * from campaigns c where c.company_id = $1 and exists (select 1 from campaign_contacts cc where cc.campaign_id = c.id and cc.company_id = c.company_id)')).toEqual([]);
    expect(problems('insert into calls (id, company_id) select gen_random_uuid(), company_id from contacts where id = $1')).toEqual(['contacts has no company_id filter']);
  });

  it('passes an OR only when each branch restricts the table; a catalogue row (no company) counts', () => {
    expect(problems('select * from ai_agents where company_id = $1 or company_id is null')).toEqual([]);
    expect(problems('select * from ai_agents where company_id = $1 or is_template')).toEqual(['ai_agents has no company_id filter']);
  });

  it("fails an INSERT that does not say the row's company", () => {
    expect(problems('insert into contacts (id, phone_number) values ($1, $2)')).toEqual(['INSERT INTO contacts sets no company_id']);
    expect(problems('insert into contacts (id, company_id, phone_number) values ($1, $2, $3)')).toEqual([]);
  });

  it("passes the unit of work's writes by primary key, and no other write without the filter", () => {
    expect(problems('update "campaigns" set "notes" = $1, "updated_at" = $2 where "id" = $3')).toEqual([]);
    expect(problems('delete from "phone_numbers" where "id" in ($1, $2)')).toEqual([]);
    expect(problems('update campaigns set status = $1 where id = $2 and status = $3')).toEqual(['campaigns has no company_id filter']);
    expect(problems('update campaigns set status = $1 where status = $2')).toEqual(['campaigns has no company_id filter']);
    expect(problems('update "campaign_contacts" set "state" = $1 where "campaign_id" = $2 and "contact_id" = $3')).toEqual([]);
    expect(problems('update campaign_contacts set state = $1 where campaign_id = $2')).toEqual(['campaign_contacts has no company_id filter']);
  });

  it("leaves tables without a company alone (child rows, jobs, the template catalogue's own tables)", () => {
    expect(problems('select * from webhook_steps where flow_id = $1')).toEqual([]);
    expect(problems('select * from pgboss.job where id = $1')).toEqual([]);
  });

  it('reports a statement it cannot parse', () => {
    expect(problems('select from where')).toEqual([expect.stringMatching(/^unparsable: /)]);
  });
});

describe('the audit of a run', () => {
  it('excepts a deliberate cross-company statement by the name in its leading comment, and only a listed name', () => {
    const [listed] = Object.keys(CROSS_COMPANY);
    expect(listed).toBeDefined();
    expect(auditStatements([`/* ${listed} */ select id from calls where call_status = $1`], tables)).toEqual([]);
    const [unknown] = auditStatements(['/* sweep:unlisted */ select id from calls where call_status = $1'], tables);
    expect(unknown).toContain('named "sweep:unlisted", not in CROSS_COMPANY');
    expect(auditStatements(['select id from calls where call_status = $1'], tables)).toEqual([expect.stringContaining('calls has no company_id filter')]);
  });

  it('gives each excepted statement a reason', () => {
    for (const [name, reason] of Object.entries(CROSS_COMPANY)) expect([name, reason.length > 20]).toEqual([name, true]);
  });
});
