import { FROM, okData, tenant } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/harness';
import { waitFor } from '../support/wait';

// The soak run beside test/api/calls/durability.test.ts (npm run test:slow).

const LIVE = ['pstn-queued', 'ringing', 'in-progress'];

describe('the per-company concurrency limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ SIM_RING_MS: '20', SIM_TALK_MS: '150', MAX_CONCURRENT_CALLS_PER_COMPANY: '5', JOB_POLL_MS: '20' });
  });
  afterAll(() => t.close());

  it('holds under 100 simultaneous make-calls, and every call still completes', async () => {
    const a = await tenant(t, 'A');
    const b = await tenant(t, 'B', '+14155552672');
    const em = t.app.orm.em.fork();
    const liveOf = async (companyId: string) => {
      const [row] = await em.execute(`select count(*)::int as n from calls where company_id = ? and dispatched_at is not null and call_status in ('pstn-queued','ringing','in-progress')`, [companyId]);
      return row.n as number;
    };
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await liveOf(a.companyId));
        await new Promise((r) => setTimeout(r, 5)); // the sampling interval of the peak, not a wait
      }
    })();
    const made = await Promise.all(
      Array.from({ length: 100 }, () => t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123' } })),
    );
    expect(made.every((r) => r.status === 200)).toBe(true);
    // Another company is not held up by A's queue.
    const other = okData(await t.request('POST', '/v1/calls/make-call', { token: b.key, body: { ai_agent_id: b.agent.id, call_from: '+14155552672', call_to: '+14155550123' } }));
    await waitFor(
      "B's call to be dialed",
      async () => {
        const c = okData(await t.request('GET', `/v1/calls/${other.id}`, { token: b.key }));
        return c.call_status !== 'pstn-queued' ? true : undefined;
      },
      5_000,
    );
    await waitFor(
      'all 100 calls to complete',
      async () => {
        const [row] = await em.execute(`select count(*)::int as n from calls where company_id = ? and call_status = 'completed'`, [a.companyId]);
        return row.n === 100 ? true : undefined;
      },
      60_000,
      100,
    );
    sampling = false;
    await sampler;
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(5);
    const [stillLive] = await em.execute(`/* test:check */ select count(*)::int as n from calls where call_status in (?)`, [LIVE]);
    expect(stillLive.n).toBe(0);
  }, 90_000);
});
