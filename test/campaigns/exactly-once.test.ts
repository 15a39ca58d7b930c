import { okData, type Tenant, tenant } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/harness';
import { campaignApi, DIALER_ENV, statsWhen } from './support';

/** `count` numbers every one of which a person answers. */
const people = (count: number, first = 3000) => Array.from({ length: count }, (_, i) => `+1415${String(first + i).padStart(7, '5')}`);

/** Calls per (contact, attempt) of a campaign, read from the database: what "called twice" would show. */
async function callsPerAttempt(t: TestApp, campaignId: string): Promise<{ calls: number; attempts: number; maxPerAttempt: number; contacts: number }> {
  const [row] = await t.app.orm.em.fork().execute(
    `/* test:check */ SELECT count(*)::int AS calls, count(DISTINCT (contact_id, campaign_attempt))::int AS attempts, count(DISTINCT contact_id)::int AS contacts,
            COALESCE(max(n), 0)::int AS max_per_attempt
     FROM calls LEFT JOIN (SELECT contact_id AS c, campaign_attempt AS a, count(*) AS n FROM calls WHERE campaign_id = ? GROUP BY 1, 2) g
       ON g.c = calls.contact_id AND g.a = calls.campaign_attempt
     WHERE campaign_id = ?`,
    [campaignId, campaignId],
  );
  return { calls: row.calls, attempts: row.attempts, maxPerAttempt: row.max_per_attempt, contacts: row.contacts };
}

describe('pause and resume', () => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await startTestApp({ ...DIALER_ENV, SIM_TALK_MS: '400' });
    a = await tenant(t, 'A');
  });
  afterAll(() => t.close());

  it('pausing stops new calls while live ones finish; resuming goes on where it stopped, calling no one twice', async () => {
    const api = campaignApi(t, a);
    const campaign = await api.campaign({ contacts_list_tags: ['pause'], max_concurrent_calls: 2, call_time_of_day_from: '00:00:00', call_time_of_day_to: '00:00:00', time_zone: 'UTC' });
    await api.contacts(people(6), { tag_name: 'pause' });
    await api.update(campaign.id, { status: 'active' });
    await statsWhen(api, campaign.id, 'two calls live', (s) => s.in_progress === 2);
    await api.update(campaign.id, { status: 'paused' });
    const paused = await statsWhen(api, campaign.id, 'the live calls to end and be counted', (s) => s.in_progress === 0 && s.settled >= 2);
    expect(paused.queued).toBe(6 - paused.settled);
    expect(paused.next_attempt_at).toBeNull();
    const whilePaused = await callsPerAttempt(t, campaign.id);
    expect(whilePaused.calls).toBe(paused.settled);
    expect((await api.get(campaign.id)).status).toBe('paused');

    await api.update(campaign.id, { status: 'active' });
    const done = await statsWhen(api, campaign.id, 'every contact to be picked up', (s) => s.picked_up === 6, 30_000);
    expect(done.call_progress).toBe(100);
    expect(await callsPerAttempt(t, campaign.id)).toEqual({ calls: 6, attempts: 6, maxPerAttempt: 1, contacts: 6 });
    expect((await api.get(campaign.id)).status).toBe('completed');
  }, 60_000);
});

describe('a crash in the middle of a campaign', () => {
  it('loses no contact and calls none twice once started again', async () => {
    const env = { ...DIALER_ENV, SIM_TALK_MS: '300' };
    const first = await startTestApp(env);
    const a = await tenant(first, 'A');
    const api = campaignApi(first, a);
    const campaign = await api.campaign({ contacts_list_tags: ['crash'], max_concurrent_calls: 3, call_time_of_day_from: '00:00:00', call_time_of_day_to: '00:00:00', time_zone: 'UTC' });
    await api.contacts(people(9, 4000), { tag_name: 'crash' });
    await api.update(campaign.id, { status: 'active' });
    await statsWhen(api, campaign.id, 'calls to be live', (s) => s.in_progress > 0 && s.settled > 0);
    await first.app.close();

    const second = await startTestApp({ ...env, DATABASE_URL: first.databaseUrl });
    try {
      const api2 = campaignApi(second, a);
      await statsWhen(api2, campaign.id, 'every contact to be picked up after the restart', (s) => s.picked_up === 9, 30_000);
      expect(await callsPerAttempt(second, campaign.id)).toEqual({ calls: 9, attempts: 9, maxPerAttempt: 1, contacts: 9 });
    } finally {
      await second.close();
    }
  }, 90_000);
});

describe('two instances dialing one campaign', () => {
  it('call each of 500 contacts once', async () => {
    const env = { ...DIALER_ENV, SIM_RING_MS: '0', SIM_TALK_MS: '0', MAX_CONCURRENT_CALLS_PER_COMPANY: '100', CAMPAIGN_SWEEP_MS: '50' };
    const one = await startTestApp(env);
    const two = await startTestApp({ ...env, DATABASE_URL: one.databaseUrl });
    try {
      const a = await tenant(one, 'A');
      const api = campaignApi(one, a);
      const campaign = await api.campaign({ contacts_list_tags: ['big'], max_concurrent_calls: 50, call_time_of_day_from: '00:00:00', call_time_of_day_to: '00:00:00', time_zone: 'UTC' });
      okData(await one.request('POST', '/v1/contacts', { token: a.key, body: people(500, 5000).map((phone_number) => ({ phone_number, tag_name: 'big' })) }));
      // Each instance activates it, so both ask for ticks from the start.
      await api.update(campaign.id, { status: 'active' });
      await campaignApi(two, a).update(campaign.id, { status: 'active' });
      const done = await statsWhen(api, campaign.id, 'all 500 contacts to be picked up', (s) => s.picked_up === 500, 120_000);
      expect(done).toMatchObject({ contacts_selected: 500, settled: 500, call_progress: 100 });
      expect(await callsPerAttempt(one, campaign.id)).toEqual({ calls: 500, attempts: 500, maxPerAttempt: 1, contacts: 500 });
      const [ticks] = await one.app.orm.em.fork().execute(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'campaign.tick' AND state = 'completed'`);
      expect(ticks.n).toBeGreaterThan(1);
    } finally {
      await two.close();
      await one.close();
    }
  }, 180_000);
});
