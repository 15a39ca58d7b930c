import { okData, type Tenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

/** What the dialer suites run with: near-zero call timings, quick sweeps. */
export const DIALER_ENV = { SIM_RING_MS: '5', SIM_TALK_MS: '5', CAMPAIGN_SWEEP_MS: '100', JOB_POLL_MS: '50' };

/** REST calls of one tenant against the campaign operations. */
export function campaignApi(t: TestApp, a: Tenant) {
  const post = async (path: string, body: unknown) => okData(await t.request('POST', path, { token: a.key, body }));
  return {
    /** Contacts made in bulk; `fields` applied to each. */
    contacts: async (numbers: string[], fields: Record<string, unknown> = {}) =>
      post(
        '/v1/contacts',
        numbers.map((phone_number, i) => ({ firstname: `C${i}`, phone_number, ...fields })),
      ) as Promise<any[]>,
    /** A campaign of this tenant's agent and number, every day 09:00 to 17:00 New York unless told otherwise. */
    campaign: async (fields: Record<string, unknown> = {}) =>
      post('/v1/campaigns', {
        name: 'Dialer',
        ai_agent_id: a.agent.id,
        outbound_phone_number_id: a.number.id,
        time_zone: 'America/New_York',
        days_of_week: [1, 2, 3, 4, 5, 6, 7],
        ...fields,
      }),
    update: async (id: string, body: unknown) => {
      const res = await t.request('POST', `/compaign/v1/campaign/update/${id}`, { token: a.key, body });
      expect(res.body).toMatchObject({ status: 'ok' });
    },
    stats: async (id: string) => okData(await t.request('GET', `/v1/campaigns/by-id/${id}/stats`, { token: a.key })),
    get: async (id: string) => okData(await t.request('GET', `/v1/campaigns/by-id/${id}`, { token: a.key })),
    calls: async (id: string) => okData<{ items: any[] }>(await t.request('GET', `/v1/calls?campaign_id=${id}&limit=200`, { token: a.key })).items,
  };
}

export type CampaignApi = ReturnType<typeof campaignApi>;

/** Waits until the campaign's stats satisfy `done`; answers them. */
export function statsWhen(api: CampaignApi, id: string, what: string, done: (s: any) => boolean, timeoutMs?: number): Promise<any> {
  let last: unknown;
  return waitFor(
    () => `${what} (last stats: ${JSON.stringify(last)})`,
    async () => {
      const s = await api.stats(id);
      last = s;
      return done(s) ? s : undefined;
    },
    timeoutMs,
  );
}

/** `count` numbers every one of which a person answers. */
export const people = (count: number, first = 3000) => Array.from({ length: count }, (_, i) => `+1415${String(first + i).padStart(7, '5')}`);

/** Calls per (contact, attempt) of a campaign, read from the database: what "called twice" would show. */
export async function callsPerAttempt(t: TestApp, campaignId: string): Promise<{ calls: number; attempts: number; maxPerAttempt: number; contacts: number }> {
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
