import { tenant } from '../../support/fixtures';
import { startTestApp } from '../../support/harness';
import { callsPerAttempt, campaignApi, DIALER_ENV, people, statsWhen } from './support';

// Pausing and resuming, one tick at a time: test/service/dialer.test.ts. Here, a campaign
// whose process dies mid-way, started again on the same database.

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
