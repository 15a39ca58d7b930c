import { type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { callsPerAttempt, campaignApi, DIALER_ENV, people, statsWhen } from './support';

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
