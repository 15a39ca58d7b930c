import { okData, tenant } from '../support/fixtures';
import { startTestApp } from '../support/harness';
import { callsPerAttempt, campaignApi, DIALER_ENV, people, statsWhen } from '../api/campaigns/support';

// The soak run beside test/api/campaigns/exactly-once.test.ts (npm run test:slow).

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
