import { FROM, okData, tenant } from '../../support/fixtures';
import { startTestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

describe('a process killed in the middle of a call', () => {
  it('finishes the call once started again on the same database', async () => {
    const env = { SIM_RING_MS: '50', SIM_TALK_MS: '1500' };
    const first = await startTestApp(env);
    const a = await tenant(first, 'A');
    const call = okData(await first.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123' } }));
    await waitFor('the call to be answered', async () => {
      const c = okData(await first.request('GET', `/v1/calls/${call.id}`, { token: a.key }));
      return c.call_status === 'in-progress' ? c : undefined;
    });
    await first.app.close();

    const second = await startTestApp({ ...env, DATABASE_URL: first.databaseUrl });
    try {
      const done = await waitFor('the call to complete after the restart', async () => {
        const c = okData(await second.request('GET', `/v1/calls/${call.id}`, { token: a.key }));
        return c.call_status === 'completed' ? c : undefined;
      });
      expect(done).toMatchObject({ disconnect_reason: 'agent_hangup', call_duration: 2 });
    } finally {
      await second.close();
    }
  }, 60_000);
});
