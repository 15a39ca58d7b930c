import type http from 'node:http';
import { startTestApp, type TestApp } from '../../support/harness';
import { ManualClock } from '../../support/clock';
import { answer, FLOW_ENV, flowApi, inTurn, Receiver, waitFor } from './support';

const T0 = new Date('2031-03-04T05:06:07.000Z');
const clock = new ManualClock(T0);
let t: TestApp;
let rx: Receiver;
let api: ReturnType<typeof flowApi>;
let companyId: string;
/** Responses held open by a test, answered or dropped when it says. */
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  t = await startTestApp(FLOW_ENV, { clock });
  rx = await Receiver.start();
  rx.on('/hang', (_req, res) => held.push(res));
  const company = await t.company('Reliability');
  companyId = company.companyId;
  api = flowApi(t, company.apiKey);
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

describe('timeouts and misbehaving receivers', () => {
  it('bounds each request by webhook_timeout', async () => {
    const flow = await api.create({ max_retries: 0, steps: [{ step_number: 1, webhook_url: `${rx.url}/hang`, webhook_timeout: 1 }] });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done.status).toBe('failed');
    expect(done.steps[0]).toMatchObject({ status: 'failed', tries: 1, error: 'No complete response within 1 s', response: null });
    expect(done.steps[0].duration_ms).toBeGreaterThanOrEqual(950);
    expect(done.steps[0].duration_ms).toBeLessThan(3000);
  });

  it('bounds the whole step, retries included, by timeout', async () => {
    const flow = await api.create({ max_retries: 0, steps: [{ step_number: 1, webhook_url: `${rx.url}/hang`, webhook_timeout: 1, retry_limit: 10, timeout: 2 }] });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done.steps[0].status).toBe('failed');
    expect(done.steps[0].error).toMatch(/step timeout of 2 s reached$/);
    expect(done.steps[0].tries).toBeLessThanOrEqual(2);
    expect(done.steps[0].duration_ms).toBeLessThan(3000);
  });

  it('fails a step whose receiver resets the connection, with a readable error', async () => {
    rx.on('/reset', (_req, res) => res.socket?.destroy());
    const flow = await api.create({ max_retries: 0, steps: [{ step_number: 1, webhook_url: `${rx.url}/reset` }] });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done.steps[0]).toMatchObject({ status: 'failed', error: 'Connection closed by the receiver before it answered' });
  });

  it('reads at most 1 MiB of a 5 MB answer and keeps a 4 KB excerpt', async () => {
    rx.on('/huge', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(Buffer.alloc(5 * 1024 * 1024, 'a'));
    });
    const flow = await api.create({ steps: [{ step_number: 1, webhook_url: `${rx.url}/huge` }] });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done.status).toBe('success');
    expect(done.steps[0].response).toMatchObject({ status: 200, truncated: true });
    expect(done.steps[0].response.body).toHaveLength(4096);
  });
});

describe('attempts', () => {
  it('retries a failed attempt after the flow retry delay, on the injected clock, resending only what did not succeed', async () => {
    clock.set(T0);
    rx.on('/attempt/two', inTurn(answer(500, {}), answer(503, {}), answer(200, {})));
    const flow = await api.create({
      max_retries: 2,
      retry_delay: 1,
      retry_delay_unit: 'seconds',
      steps: [
        { step_number: 1, webhook_url: `${rx.url}/attempt/one` },
        { step_number: 2, webhook_url: `${rx.url}/attempt/two`, depends_on_step: 1 },
      ],
    });
    const { id } = await api.trigger(flow.id);
    const waiting = await waitFor(
      () => api.execution(flow.id, id),
      (e) => e.attempt_number === 2,
    );
    expect(waiting).toMatchObject({ status: 'scheduled', next_retry_at: '2031-03-04T05:06:08.000Z', error_message: 'Step 2 failed: HTTP 500 (expected 2xx)' });
    expect(waiting.executed_at).toBe(T0.toISOString());
    clock.set(new Date(T0.getTime() + 60_000));
    const done = await api.settled(flow.id, id);
    expect(done).toMatchObject({ status: 'success', attempt_number: 3, next_retry_at: '2031-03-04T05:07:08.000Z', error_message: null, finished_at: '2031-03-04T05:07:07.000Z' });
    expect(done.steps.map((s: any) => [s.attempt_number, s.step_number, s.status])).toEqual([
      [1, 1, 'success'],
      [1, 2, 'failed'],
      [2, 2, 'failed'],
      [3, 2, 'success'],
    ]);
    expect(rx.at('/attempt/one')).toHaveLength(1);
    expect(rx.at('/attempt/two')).toHaveLength(3);
    expect(new Set(rx.at('/attempt/two').map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('fails the execution once max_retries attempts have failed', async () => {
    rx.on('/attempt/never', answer(500, {}));
    const flow = await api.create({ max_retries: 1, retry_delay: 0, steps: [{ step_number: 1, webhook_url: `${rx.url}/attempt/never` }] });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done).toMatchObject({ status: 'failed', attempt_number: 2, error_message: 'Step 1 failed: HTTP 500 (expected 2xx)' });
    expect(rx.at('/attempt/never')).toHaveLength(2);
  });
});

describe('restart', () => {
  it('loses nothing and resends no succeeded step when the service restarts mid-execution', async () => {
    held.length = 0;
    rx.on('/restart/two', (_req, res) => held.push(res));
    const flow = await api.create({
      steps: [
        { step_number: 1, webhook_url: `${rx.url}/restart/one` },
        { step_number: 2, webhook_url: `${rx.url}/restart/two`, webhook_timeout: 30 },
        { step_number: 3, webhook_url: `${rx.url}/restart/three` },
      ],
    });
    const { id } = await api.trigger(flow.id);
    await waitFor(
      async () => held.length,
      (n) => n === 1,
    );
    const restarting = t.restart();
    held[0].writeHead(200).end('{}');
    await restarting;
    const done = await api.settled(flow.id, id);
    expect(done.status).toBe('success');
    expect(done.steps.map((s: any) => [s.step_number, s.status])).toEqual([
      [1, 'success'],
      [2, 'success'],
      [3, 'success'],
    ]);
    expect([rx.at('/restart/one').length, rx.at('/restart/two').length, rx.at('/restart/three').length]).toEqual([1, 1, 1]);
  });

  it('after a crash mid-step, the redelivered job resends that step only, and the dead worker cannot record twice', async () => {
    held.length = 0;
    rx.on(
      '/crash/two',
      inTurn((_req, res) => held.push(res), answer(200, {})),
    );
    const flow = await api.create({
      steps: [
        { step_number: 1, webhook_url: `${rx.url}/crash/one` },
        { step_number: 2, webhook_url: `${rx.url}/crash/two`, webhook_timeout: 30 },
        { step_number: 3, webhook_url: `${rx.url}/crash/three` },
      ],
    });
    const { id } = await api.trigger(flow.id);
    await waitFor(
      async () => held.length,
      (n) => n === 1,
    );
    // What pg-boss does once the job of a worker that died outlives its expiry: deliver it again.
    const caller = { scope: { companyId, userId: null }, em: t.app.orm.em.fork() };
    await t.app.services.flows.runStep(caller, { companyId, executionId: id, attempt: 1, step: 2 });
    const done = await api.settled(flow.id, id);
    held[0].writeHead(200).end('{}');
    await t.restart(); // waits for the first worker's handler to end
    expect(done.status).toBe('success');
    const final = await api.execution(flow.id, id);
    expect(final.steps.map((s: any) => [s.step_number, s.status])).toEqual([
      [1, 'success'],
      [2, 'success'],
      [3, 'success'],
    ]);
    expect([rx.at('/crash/one').length, rx.at('/crash/two').length, rx.at('/crash/three').length]).toEqual([1, 2, 1]);
  });
});
