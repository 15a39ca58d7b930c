import { ManualClock } from '../support/clock';
import { startTestServices, type TestServices } from '../support/services';

// The calling window as the dialer applies it: one tick, driven here, at instants either
// side of each edge (the window's own arithmetic: test/unit/campaigns/calling-window.test.ts).

// Monday 2026-11-23, 10:00 in New York (EST, UTC-5).
const clock = new ManualClock(new Date('2026-11-23T15:00:00Z'));
let s: TestServices;
let companyId: string;
let agentId: string;
let numberId: string;
let unique = 0;

const caller = () => s.caller(companyId);

beforeAll(async () => {
  s = await startTestServices({}, { clock });
  ({ companyId } = await s.company('A'));
  ({ id: agentId } = await s.services.agents.create(caller(), { name: 'A agent', prompt: 'Hello {{firstname}}' }));
  ({ id: numberId } = await s.services.phoneNumbers.create(caller(), { phone_number: '+14155552671', label: 'main' }));
});
afterAll(() => s.close());

/** An active campaign, every day 09:00 to 17:00 New York unless `fields` say otherwise, over two fresh contacts of its own tag. */
async function running(fields: Record<string, unknown>) {
  unique += 1;
  const tag = `window-${unique}`;
  await s.services.contacts.create(caller(), [1, 2].map((i) => ({ firstname: `C${i}`, phone_number: `+1415${200 + unique}${1000 + i}`, tag_name: tag })));
  return s.services.campaigns.create(caller(), {
    name: 'Dialer',
    ai_agent_id: agentId,
    outbound_phone_number_id: numberId,
    time_zone: 'America/New_York',
    days_of_week: [1, 2, 3, 4, 5, 6, 7],
    contacts_list_tags: [[tag]],
    status: 'active',
    ...fields,
  });
}

describe('the calling window', () => {
  it.each([
    ['one second before it opens', '2026-11-23T13:59:59Z', {}, false],
    ['one second after it opens', '2026-11-23T14:00:01Z', {}, true],
    ['one second before it closes', '2026-11-23T21:59:59Z', {}, true],
    ['one second after it closes', '2026-11-23T22:00:01Z', {}, false],
    ['on a day of week it leaves out (Saturday)', '2026-11-28T15:00:00Z', { days_of_week: [1, 2, 3, 4, 5] }, false],
    ['before its first date', '2026-11-23T15:00:00Z', { started_at: '2026-11-24' }, false],
    ['on its last date', '2026-11-23T15:00:00Z', { ended_at: '2026-11-23' }, true],
    ['New York spring-forward day, 09:00:01 EDT', '2026-03-08T13:00:01Z', {}, true],
    ['New York spring-forward day, 08:59:59 EDT', '2026-03-08T12:59:59Z', {}, false],
    ['Berlin fall-back day, 09:00:01 CET', '2026-10-25T08:00:01Z', { time_zone: 'Europe/Berlin' }, true],
    ['Berlin fall-back day, 08:59:59 CET', '2026-10-25T07:59:59Z', { time_zone: 'Europe/Berlin' }, false],
    ['past midnight, Saturday 01:00 in a Friday 22:00-02:00 window', '2026-11-28T06:00:00Z', { call_time_of_day_from: '22:00:00', call_time_of_day_to: '02:00:00', days_of_week: [5] }, true],
    ['past midnight, Saturday 02:00:01 in a Friday 22:00-02:00 window', '2026-11-28T07:00:01Z', { call_time_of_day_from: '22:00:00', call_time_of_day_to: '02:00:00', days_of_week: [5] }, false],
  ])('%s: dials %s', async (_, now, fields, dials) => {
    clock.set(now);
    const campaign = await running(fields);
    // Selection and dialing happen in one tick: once the contacts are selected, the calls are placed or not.
    await s.services.dialer.tick(caller(), campaign.id);
    const stats = await s.services.campaigns.stats(caller(), campaign.id);
    expect(stats.contactsSelected).toBe(2);
    expect(stats.inProgress + stats.settled).toBe(dials ? 2 : 0);
    expect((await s.services.calls.list(caller(), { campaign_id: campaign.id, limit: 200 })).items.length).toBe(dials ? 2 : 0);
    if (!dials) expect(stats.nextAttemptAt).not.toBeNull();
  });
});
