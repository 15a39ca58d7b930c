import 'reflect-metadata';
import { startApp } from '../src/app';
import { createLogger } from '../src/logger';
import { loadCampaign, selectContacts } from '../src/services/campaigns/dialer-store';
import { benchDatabase, inProcessConfig } from './database';

/**
 * The campaign dialer under load (`npm run bench:campaigns`), on a fresh database (on
 * DATABASE_URL's server, or an embedded PostgreSQL), in one process, on 127.0.0.1:
 * 1. a campaign of CONTACTS contacts (default 10,000), every callee a person, zero-length
 *    simulated calls, a campaign and company limit of CONCURRENCY (default 200) live calls:
 *    contacts settled per second from activation to `completed`, and where the time went
 *    (the service's CPU time against PostgreSQL's active time, from pg_stat_database);
 * 2. the contact selection of a campaign over SELECT_CONTACTS contacts (default 100,000):
 *    the one statement that adds them to the campaign, timed alone.
 */
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const SELECT_CONTACTS = Number(process.env.BENCH_SELECT_CONTACTS ?? 100_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const db = await benchDatabase();
  const config = inProcessConfig(db.url, { CAMPAIGN_SWEEP_MS: '1000', MAX_CONCURRENT_CALLS_PER_COMPANY: String(CONCURRENCY) });
  const app = await startApp(config, createLogger(config.logLevel));
  const em = app.orm.em.fork();
  const { companyId } = await app.services.auth.createCompany(em, { name: `Campaign benchmark ${Date.now()}` });
  const caller = { scope: { companyId, userId: null }, em };
  const agent = await app.services.agents.create(caller, { name: 'Bench agent', prompt: 'Say hello.' });
  const number = await app.services.phoneNumbers.create(caller, { phone_number: '+14155552671' });
  const tag = `bench-${Date.now()}`;
  await em.execute(
    `INSERT INTO contacts (id, created_at, updated_at, company_id, phone_number, number_country_code, metadata, tag_name)
     SELECT gen_random_uuid(), now(), now(), ?, '+1415' || (2000005 + g * 10)::text, '1', '{}', ? FROM generate_series(1, ?) g`,
    [companyId, tag, CONTACTS],
  );
  const campaign = await app.services.campaigns.create(caller, {
    name: 'Bench',
    ai_agent_id: agent.id,
    outbound_phone_number_id: number.id,
    contacts_list_tags: [tag],
    call_time_of_day_from: '00:00:00',
    call_time_of_day_to: '00:00:00',
    days_of_week: [1, 2, 3, 4, 5, 6, 7],
    max_concurrent_calls: Math.min(CONCURRENCY, 1000),
  });

  const dbActiveMs = async () => {
    await em.execute('SELECT pg_stat_force_next_flush()');
    await sleep(1200);
    const [row] = await em.execute('SELECT active_time FROM pg_stat_database WHERE datname = current_database()');
    return Number(row.active_time);
  };
  const dbBefore = await dbActiveMs();
  const cpuBefore = process.cpuUsage();
  const started = Date.now();
  await app.services.campaigns.update(caller, campaign.id, { status: 'active' });
  const deadline = Date.now() + 900_000;
  let stats = await app.services.campaigns.stats({ scope: caller.scope, em: app.orm.em.fork() }, campaign.id);
  while (stats.status !== 'completed' && Date.now() < deadline) {
    await sleep(100);
    stats = await app.services.campaigns.stats({ scope: caller.scope, em: app.orm.em.fork() }, campaign.id);
  }
  const wallMs = Date.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const dbMs = (await dbActiveMs()) - dbBefore;
  const [calls] = await em.execute(`SELECT count(*)::int AS n, count(DISTINCT contact_id)::int AS contacts FROM calls WHERE campaign_id = ?`, [campaign.id]);

  const selectTag = `select-${Date.now()}`;
  await em.execute(
    `INSERT INTO contacts (id, created_at, updated_at, company_id, phone_number, number_country_code, metadata, tag_name)
     SELECT gen_random_uuid(), now(), now(), ?, '+1628' || (2000005 + g * 10)::text, '1', '{}', ? FROM generate_series(1, ?) g`,
    [companyId, selectTag, SELECT_CONTACTS],
  );
  const big = await app.services.campaigns.create(caller, { name: 'Selection', contacts_list_tags: [selectTag] });
  const row = (await loadCampaign(em, { id: big.id, companyId }))!;
  const selectStarted = performance.now();
  const selected = await em.transactional((tx) => selectContacts(tx, row, new Date()));
  const selectMs = performance.now() - selectStarted;

  console.log(`campaign of ${CONTACTS} contacts, limit ${CONCURRENCY} live calls, zero-length calls`);
  console.log(`  settled:                 ${stats.settled} (${stats.pickedUp} picked up), status ${stats.status}`);
  console.log(`  calls placed:            ${calls.n} to ${calls.contacts} contacts`);
  console.log(`  contacts settled per s:  ${((stats.settled / wallMs) * 1000).toFixed(0)} (${(wallMs / 1000).toFixed(1)} s)`);
  console.log(`  service CPU:             ${(cpuMs / 1000).toFixed(1)} s (${((cpuMs / wallMs) * 100).toFixed(0)}% of one core)`);
  console.log(`  PostgreSQL active time:  ${(dbMs / 1000).toFixed(1)} s, summed over connections`);
  console.log(`  share in the database:   ${((dbMs / (dbMs + cpuMs)) * 100).toFixed(0)}% of service CPU + database active time`);
  console.log(`selection of a ${SELECT_CONTACTS}-contact campaign: ${selected} contacts in ${selectMs.toFixed(0)} ms`);
  await app.close();
  await db.drop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
