import type { CampaignCreateInput } from '../../src/services/campaigns/campaign.contract';
import type { ContactCreateInput } from '../../src/services/contacts/contact.input';
import type { CallStatus } from '../../src/entities/call.entity';
import type { StatusUpdate } from '../../src/services/telephony/telephony';
import { ManualClock } from './clock';
import { startTestServices, type TestServices } from './services';

/**
 * The dialer at the service level (docs/testing.md, "Levels"): services without HTTP or job
 * workers, on a manual clock that starts Monday 2026-11-23, 10:00 in New York (EST, UTC-5).
 * A test ticks the campaign itself (`tick`) and ends its calls as the provider would
 * (`end`): nothing waits on a timer, so each rule is checked at the instant it applies.
 */
export interface Dialer {
  s: TestServices;
  clock: ManualClock;
  companyId: string;
  agentId: string;
  numberId: string;
  /** An active campaign, every day 09:00 to 17:00 New York unless `fields` say otherwise, over fresh contacts of its own tag (one per number). */
  running(fields: Partial<CampaignCreateInput>, numbers: string[], contactFields?: Partial<ContactCreateInput>): Promise<{ id: string }>;
  /** One tick of the campaign; answers whether its selection pass has slices left. */
  tick(campaignId: string): Promise<boolean>;
  stats(campaignId: string): ReturnType<TestServices['services']['campaigns']['stats']>;
  /** The campaign's calls, oldest first. */
  calls(campaignId: string): Promise<{ id: string; callStatus: CallStatus; callTo: string; contactId: string | null }[]>;
  /** Ends a call now as the provider would report it (a live call: `update` adds the reason or the duration). */
  end(callId: string, status: CallStatus, update?: Partial<StatusUpdate>): Promise<boolean>;
  /** Fresh numbers of New York's area code, so that no two campaigns share a contact. */
  numbers(count: number): string[];
  /** The campaign's kept counts of its selected and settled contacts (null: not counted yet) and its stored `call_progress`. */
  kept(campaignId: string): Promise<{ selected: number | null; settled: number | null; callProgress: number }>;
}

export const DIALER_START = '2026-11-23T15:00:00Z';

export async function startDialer(env: Record<string, string> = {}): Promise<Dialer> {
  const clock = new ManualClock(new Date(DIALER_START));
  const s = await startTestServices(env, { clock });
  const { companyId } = await s.company('A');
  const caller = () => s.caller(companyId);
  const { id: agentId } = await s.services.agents.create(caller(), { name: 'A agent', prompt: 'Hello {{firstname}}' });
  const { id: numberId } = await s.services.phoneNumbers.create(caller(), { phoneNumber: '+14155552671', label: 'main' });
  let unique = 0;
  return {
    s,
    clock,
    companyId,
    agentId,
    numberId,
    async running(fields, numbers, contactFields = {}) {
      unique += 1;
      const tag = `dialer-${unique}`;
      if (numbers.length > 0)
        await s.services.contacts.create(
          caller(),
          numbers.map((phoneNumber, i) => ({ firstname: `C${i}`, phoneNumber, tagName: tag, ...contactFields })),
        );
      return s.services.campaigns.create(caller(), {
        name: 'Dialer',
        aiAgentId: agentId,
        outboundPhoneNumberId: numberId,
        timeZone: 'America/New_York',
        daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
        contactsListTags: [[tag]],
        status: 'active',
        ...fields,
      });
    },
    tick: (campaignId) => s.services.dialer.tick(caller(), campaignId),
    stats: (campaignId) => s.services.campaigns.stats(caller(), campaignId),
    async calls(campaignId) {
      const { items } = await s.services.calls.list(caller(), { campaignId: campaignId, limit: 200 });
      return items.reverse();
    },
    end: (callId, status, update = {}) => s.services.lifecycle.applyUpdate({ id: callId, companyId }, { status, at: clock.now(), ...update }),
    numbers(count) {
      return Array.from({ length: count }, () => {
        unique += 1;
        return `+1212555${String(1000 + unique).padStart(4, '0')}`;
      });
    },
    async kept(campaignId) {
      const [row] = await s.orm.em
        .fork()
        .execute<{ selected: number | null; settled: number | null; callProgress: number }[]>(
          'SELECT entries_selected AS selected, entries_settled AS settled, call_progress AS "callProgress" FROM campaigns WHERE id = ? AND company_id = ?',
          [campaignId, companyId],
        );
      return row;
    },
  };
}
