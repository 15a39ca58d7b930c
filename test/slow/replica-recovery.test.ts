import pg from 'pg';
import { answer, Receiver } from '../api/flows/support';
import { createTestDatabase } from '../support/harness';
import { demoKey, killReplicas, listening, type Replica, replicaData, spawnReplica } from '../support/replicas';
import { waitFor } from '../support/wait';

// A replica killed with SIGKILL (no shutdown: its jobs stay `active` in pg-boss, the flow steps
// it was sending itself stay held by its executions, its simulated calls' timers are gone) must not hold
// its work for minutes: another replica runs it again within the bounds of
// docs/operations.md ("Recovery after a crash"), here made short through the environment.

const EXPIRY_S = 2;
const MAINTENANCE_S = 1;
/** Polling by the test and the surviving worker, start of the handler, on a busy machine. */
const SLACK_S = 3;
/**
 * The flow step sweep's period (CAMPAIGN_SWEEP_MS): a step the killed replica was sending
 * itself is queued as a job once its deadline (its timeout plus JOB_EXPIRY_S) has passed.
 */
const FLOW_SWEEP_S = 1;

/** A simulated call's ringing: long enough to start the next replica before the first is killed. */
const RING_S = 20;
/** The call sweep's period: a simulated call's step overdue by more than it is taken by the sweep. */
const SWEEP_S = 0.5;

const ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  SEED_DEMO: '1',
  JOB_POLL_MS: '50',
  JOB_EXPIRY_S: String(EXPIRY_S),
  JOB_MAINTENANCE_S: String(MAINTENANCE_S),
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  SIM_RING_MS: String(RING_S * 1000),
  SIM_TALK_MS: '200',
  CALL_SWEEP_MS: String(SWEEP_S * 1000),
  CAMPAIGN_SWEEP_MS: String(FLOW_SWEEP_S * 1000),
};

/** A flow step's `timeout`: long enough to start the next replica while the first one sends. */
const STEP_TIMEOUT_S = 15;

let db: { url: string; drop(): Promise<void> };
let sql: pg.Client;
let receiver: Receiver;
const replicas: Replica[] = [];
let key: string;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  receiver = await Receiver.start();
}, 30_000);

afterAll(async () => {
  await killReplicas(replicas);
  await receiver.close();
  await sql.end();
  await db.drop();
}, 30_000);

async function startReplica(name: string, env: Record<string, string> = {}): Promise<Replica> {
  const replica = await spawnReplica(name, db.url, { ...ENV, ...env });
  replicas.push(replica);
  await listening(replica);
  return replica;
}

async function killHard(replica: Replica): Promise<void> {
  replica.process.kill('SIGKILL');
  expect(await replica.exited).toBeNull();
}

const call = <T>(replica: Replica, method: string, path: string, body?: unknown): Promise<T> => replicaData<T>(replica, key, method, path, body);

const seconds = (from: number, to: number) => (to - from) / 1000;

/**
 * A one-step flow posting to `path`, created and triggered on `on`. The receiver holds the
 * first request open (the killed replica never hears back) and answers the next; `sent` says
 * when each arrived.
 */
async function heldStepFlow(on: Replica, path: string, name: string) {
  const sent = { firstAt: 0, secondAt: 0 };
  receiver.on(path, (req, res) => {
    if (sent.firstAt === 0) {
      sent.firstAt = Date.now();
      return;
    }
    sent.secondAt ||= Date.now();
    answer(200, { ok: true })(req, res);
  });
  const flow = await call<{ id: string }>(on, 'POST', '/v1/webhooks', {
    name,
    steps: [{ step_number: 1, webhook_url: `${receiver.url}${path}`, webhook_method: 'POST', timeout: STEP_TIMEOUT_S, webhook_timeout: STEP_TIMEOUT_S }],
  });
  const execution = await call<{ id: string; status: string }>(on, 'POST', `/v1/webhooks/${flow.id}/trigger`, { variables: {} });
  return { sent, flow, execution };
}

/** The step was sent twice as the same message, and the execution succeeded, read on `on`. */
async function expectSentAgainAndSucceeded(on: Replica, path: string, flowId: string, executionId: string): Promise<void> {
  const requests = receiver.at(path);
  expect(requests).toHaveLength(2);
  expect(requests[1].headers['webhook-id']).toBe(requests[0].headers['webhook-id']);
  const done = await waitFor('the execution to succeed', async () => {
    const e = await call<{ status: string; steps: { status: string }[] }>(on, 'GET', `/v1/webhooks/${flowId}/executions/${executionId}`);
    return e.status === 'success' ? e : undefined;
  });
  expect(done.steps.map((s) => s.status)).toEqual(['success']);
}

describe('recovery after a replica is killed (kill -9)', () => {
  it('a flow step in flight on the killed replica is sent again within its timeout plus the recovery bound', async () => {
    const a = await startReplica('a');
    key = demoKey(a.output.stdout);

    // Triggered on `a` while it is the only replica: `a` sends the step itself (a local step).
    const { sent, flow, execution } = await heldStepFlow(a, '/slow', 'Recovery');
    await waitFor('the step to reach the receiver', async () => (sent.firstAt > 0 ? true : undefined), 10_000);

    await startReplica('b');
    await killHard(a);
    expect(seconds(sent.firstAt, Date.now())).toBeLessThan(STEP_TIMEOUT_S);

    const bound = STEP_TIMEOUT_S + EXPIRY_S + FLOW_SWEEP_S + SLACK_S;
    await waitFor(`the step to be sent again within ${bound} s`, async () => (sent.secondAt > 0 ? true : undefined), (bound + 1) * 1000, 50);
    expect(seconds(sent.firstAt, sent.secondAt)).toBeLessThanOrEqual(bound);

    await expectSentAgainAndSucceeded(replicas[1], '/slow', flow.id, execution.id);
  }, 90_000);

  it('a simulated call whose next step was due on the killed replica does not stay ringing', async () => {
    const b = replicas[1];
    const agents = await call<{ id: string; name: string }[]>(b, 'GET', '/v1/ai-agent');
    const agent = agents.find((x) => x.name === 'Demo appointment reminder')!;
    // `b`, the only replica, places the call: its answer step waits on `b`'s timer.
    const made = await call<{ id: string }>(b, 'POST', '/v1/calls/make-call', { ai_agent_id: agent.id, call_from: '+14155550100', call_to: '+14155552000' });
    const ringingAt = await waitFor('the call to ring', async () => {
      const { rows } = await sql.query(`select call_status, updated_at from calls where id = $1`, [made.id]);
      return rows[0]?.call_status === 'ringing' ? (rows[0].updated_at as Date).getTime() : undefined;
    });

    await startReplica('c');
    await killHard(b);
    const killedAt = Date.now();
    const { rows: still } = await sql.query(`select call_status from calls where id = $1`, [made.id]);
    expect(still[0]?.call_status).toBe('ringing');

    const answered = await waitFor(
      'the call to be answered by the sweep of the surviving replica',
      async () => {
        const { rows } = await sql.query(`select started_at from calls where id = $1`, [made.id]);
        return rows[0]?.started_at ? (rows[0].started_at as Date).getTime() : undefined;
      },
      (RING_S + 2 * SWEEP_S + SLACK_S + 5) * 1000,
      50,
    );
    // Overdue one sweep period after its due time, taken at the next sweep (docs/calls.md).
    expect(answered).toBeGreaterThanOrEqual(ringingAt + RING_S * 1000);
    const from = Math.max(ringingAt + RING_S * 1000, killedAt);
    expect(seconds(from, answered)).toBeLessThanOrEqual(2 * SWEEP_S + SLACK_S);
    await waitFor('the call to complete', async () => {
      const { rows } = await sql.query(`select call_status from calls where id = $1`, [made.id]);
      return rows[0]?.call_status === 'completed' ? true : undefined;
    });
  }, 90_000);

  it('a flow step job in flight on the killed worker is sent again by another once the job expires', async () => {
    const worker = replicas[2];
    // Triggered on an API-only replica, the step is a job, which `worker`, the only worker, takes.
    const api = await startReplica('api', { JOB_WORKERS: '0' });
    const { sent, flow, execution } = await heldStepFlow(api, '/held', 'Job recovery');
    expect(execution.status).toBe('scheduled');
    await waitFor('the worker to send the step', async () => (sent.firstAt > 0 ? true : undefined), 10_000);
    const { rows: jobs } = await sql.query(`select state from pgboss.job where name = 'flow.step' and data ->> 'executionId' = $1`, [execution.id]);
    expect(jobs.map((j) => j.state)).toEqual(['active']);

    await startReplica('worker-2');
    await killHard(worker);

    // pg-boss presumes the job's worker dead past its work time (the step's timeout) plus
    // JOB_EXPIRY_S, found by maintenance within JOB_MAINTENANCE_S (docs/operations.md).
    const bound = STEP_TIMEOUT_S + EXPIRY_S + 2 * MAINTENANCE_S + SLACK_S;
    await waitFor(`the step to be sent again within ${bound} s`, async () => (sent.secondAt > 0 ? true : undefined), (bound + 1) * 1000, 50);
    expect(seconds(sent.firstAt, sent.secondAt)).toBeLessThanOrEqual(bound);
    expect(seconds(sent.firstAt, sent.secondAt)).toBeGreaterThanOrEqual(STEP_TIMEOUT_S);

    await expectSentAgainAndSucceeded(api, '/held', flow.id, execution.id);
  }, 90_000);
});
