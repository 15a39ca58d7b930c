import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type RunningApp, startApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { loadCampaign, selectContacts } from '../src/services/campaigns/campaign.store';
import { refreshContactStatistics } from '../src/services/contacts/contact.store';
import type { Caller } from '../src/services/shared/scope';
import { analyzeAfterWarmUp, benchDatabase, inProcessConfig } from './database';
import { type Statement, statementLines, statementProfile } from './statements';

/**
 * The campaign dialer under load (`npm run bench:campaigns`), on a fresh database (on
 * DATABASE_URL's server, or an embedded PostgreSQL), in one process, on 127.0.0.1:
 * 1. a campaign of BENCH_CONTACTS contacts (default 10,000, limit BENCH_CONCURRENCY live
 *    calls, default 200): `measureCampaign`, also run shorter by `npm run bench`;
 * 2. the contact selection of a campaign over BENCH_SELECT_CONTACTS contacts (default
 *    100,000): a whole pass, slice after slice (CAMPAIGN_SELECTION_SLICE, then growing up to
 *    CAMPAIGN_SELECTION_SLICE_MAX), timed alone.
 */
export interface CampaignFigures {
  contacts: number;
  settled: number;
  pickedUp: number;
  status: string;
  callsPlaced: number;
  contactsCalled: number;
  contactsPerS: number;
  wallMs: number;
  cpuMs: number;
  dbMs: number;
  statements: Statement[];
}

/**
 * Contacts of a campaign run before the measured one, not counted: until V8 has compiled the
 * hot path, a short run measures the interpreter.
 */
const WARM_UP = 500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const insertContacts = (em: EntityManager, companyId: string, prefix: string, tag: string, count: number) =>
  em.execute(
    `INSERT INTO contacts (id, created_at, updated_at, company_id, phone_number, number_country_code, metadata, tag_name)
     SELECT gen_random_uuid(), now(), now(), ?, ? || (2000005 + g * 10)::text, '1', '{}', ? FROM generate_series(1, ?) g`,
    [companyId, prefix, tag, count],
  );

/**
 * A campaign of `contacts` contacts, every callee a person, zero-length simulated calls, a
 * campaign and company limit of `concurrency` live calls: contacts settled per second from
 * activation to `completed`, where the time went (this process's CPU time against
 * PostgreSQL's active time, from pg_stat_database) and the statement profile; then
 * `selection`, if given, on the same service.
 */
export async function measureCampaign({ contacts, concurrency }: { contacts: number; concurrency: number }, selection?: (app: RunningApp, caller: Caller) => Promise<void>): Promise<CampaignFigures> {
  const db = await benchDatabase();
  const config = inProcessConfig(db.url, { CAMPAIGN_SWEEP_MS: '1000', MAX_CONCURRENT_CALLS_PER_COMPANY: String(concurrency) });
  const app = await startApp(config, createLogger(config.logLevel));
  const profile = await statementProfile(db.url);
  try {
    const em = app.orm.em.fork();
    const { companyId } = await app.services.auth.createCompany(em, { name: `Campaign benchmark ${Date.now()}` });
    const caller = { scope: { companyId, userId: null }, em };
    const agent = await app.services.agents.create(caller, { name: 'Bench agent', prompt: 'Say hello.' });
    const number = await app.services.phoneNumbers.create(caller, { phoneNumber: '+14155552671' });
    /** A campaign calling `count` new contacts at any hour, every day, at most `concurrency` at once. */
    const newCampaign = async (name: string, count: number) => {
      const tag = `${name}-${Date.now()}`;
      await insertContacts(em, companyId, '+1415', tag, count);
      // What the product's imports do after a bulk load (CSV or JSON array): the seed is the same load, without the HTTP.
      await refreshContactStatistics(em, count);
      return app.services.campaigns.create(caller, {
        name,
        aiAgentId: agent.id,
        outboundPhoneNumberId: number.id,
        contactsListTags: [tag],
        callTimeOfDayFrom: '00:00:00',
        callTimeOfDayTo: '00:00:00',
        daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
        maxConcurrentCalls: Math.min(concurrency, 1000),
      });
    };
    /** Activates the campaign and waits until it has completed; answers its last stats. */
    const runToCompletion = async (id: string) => {
      await app.services.campaigns.update(caller, id, { status: 'active' });
      const deadline = Date.now() + 900_000;
      let stats = await app.services.campaigns.stats({ scope: caller.scope, em: app.orm.em.fork() }, id);
      while (stats.status !== 'completed' && Date.now() < deadline) {
        await sleep(100);
        stats = await app.services.campaigns.stats({ scope: caller.scope, em: app.orm.em.fork() }, id);
      }
      return stats;
    };
    await runToCompletion((await newCampaign('Warm-up', WARM_UP)).id);
    const campaign = await newCampaign('Bench', contacts);
    await analyzeAfterWarmUp(db.url);

    const dbActiveMs = async () => {
      await em.execute('SELECT pg_stat_force_next_flush()');
      await sleep(1200);
      const [row] = await em.execute('SELECT active_time FROM pg_stat_database WHERE datname = current_database()');
      return Number(row.active_time);
    };
    const dbBefore = await dbActiveMs();
    await profile.start();
    const cpuBefore = process.cpuUsage();
    const started = Date.now();
    const stats = await runToCompletion(campaign.id);
    const wallMs = Date.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const statements = await profile.top(contacts);
    const dbMs = (await dbActiveMs()) - dbBefore;
    const [calls] = await em.execute(`SELECT count(*)::int AS n, count(DISTINCT contact_id)::int AS contacts FROM calls WHERE campaign_id = ?`, [campaign.id]);
    if (selection) await selection(app, caller);
    return {
      contacts,
      settled: stats.settled,
      pickedUp: stats.pickedUp,
      status: stats.status,
      callsPlaced: calls.n,
      contactsCalled: calls.contacts,
      contactsPerS: (stats.settled / wallMs) * 1000,
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      dbMs,
      statements,
    };
  } finally {
    await profile.close();
    await app.close();
    await db.drop();
  }
}

/** A full selection pass of a campaign over `count` contacts, slice after slice as the dialer's ticks take it, timed alone (no dialing between). */
async function timeSelection(app: RunningApp, caller: Caller, count: number): Promise<void> {
  const { em, scope } = caller;
  const selectTag = `select-${Date.now()}`;
  await insertContacts(em, scope.companyId, '+1628', selectTag, count);
  const big = await app.services.campaigns.create(caller, { name: 'Selection', contactsListTags: [selectTag] });
  const sizes = loadConfig().campaigns.selectionSlices;
  const selectStarted = performance.now();
  let selected = 0;
  let slices = 0;
  let firstSliceMs = 0;
  let backendMs: number | null = 0;
  for (let done = false; !done; slices += 1) {
    const step = await em.fork().transactional(async (tx) => {
      const backend = await backendCpu(tx);
      const slice = await selectContacts(tx, (await loadCampaign(tx, { id: big.id, companyId: scope.companyId }))!, new Date(), sizes);
      const spent = await backend.spentMs();
      backendMs = backendMs === null || spent === null ? null : backendMs + spent;
      return slice;
    });
    if (slices === 0) firstSliceMs = performance.now() - selectStarted;
    selected += step.added;
    done = step.done;
  }
  const cpu = backendMs === null ? 'not readable' : `${(backendMs / 1000).toFixed(1)} s, ${((backendMs * 1000) / Math.max(1, selected)).toFixed(1)} µs an entry`;
  console.log(
    `selection of a ${count}-contact campaign: ${selected} contacts in ${(performance.now() - selectStarted).toFixed(0)} ms, ${slices} slices of ${sizes.first} growing to ${sizes.max} (the first ${firstSliceMs.toFixed(0)} ms); PostgreSQL backend CPU ${cpu}`,
  );
}

/** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/**
 * The CPU time the PostgreSQL backend of `tx`'s connection spends from now on, read from
 * /proc (utime + stime, fields 14 and 15 of its stat): for a server on this machine only;
 * `spentMs` answers null when /proc does not show the backend.
 */
async function backendCpu(tx: EntityManager) {
  const [{ pid }] = await tx.execute<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
  const read = async (): Promise<number | null> => {
    try {
      const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
    } catch {
      return null;
    }
  };
  const before = await read();
  return {
    spentMs: async () => {
      const after = await read();
      return before === null || after === null ? null : after - before;
    },
  };
}

async function main(): Promise<void> {
  const contacts = Number(process.env.BENCH_CONTACTS ?? 10_000);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 200);
  const selectContactsCount = Number(process.env.BENCH_SELECT_CONTACTS ?? 100_000);
  const f = await measureCampaign({ contacts, concurrency }, (app, caller) => timeSelection(app, caller, selectContactsCount));
  console.log(`campaign of ${contacts} contacts, limit ${concurrency} live calls, zero-length calls`);
  console.log(`  settled:                 ${f.settled} (${f.pickedUp} picked up), status ${f.status}`);
  console.log(`  calls placed:            ${f.callsPlaced} to ${f.contactsCalled} contacts`);
  console.log(`  contacts settled per s:  ${f.contactsPerS.toFixed(0)} (${(f.wallMs / 1000).toFixed(1)} s)`);
  console.log(`  service CPU:             ${(f.cpuMs / 1000).toFixed(1)} s (${((f.cpuMs / f.wallMs) * 100).toFixed(0)}% of one core)`);
  console.log(`  PostgreSQL active time:  ${(f.dbMs / 1000).toFixed(1)} s, summed over connections`);
  console.log(`  share in the database:   ${((f.dbMs / (f.dbMs + f.cpuMs)) * 100).toFixed(0)}% of service CPU + database active time`);
  for (const line of statementLines('the campaign (per contact)', f.statements)) console.log(line);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
