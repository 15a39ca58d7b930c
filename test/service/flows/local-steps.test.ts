import type { FlowStepJob } from '../../../src/services/platform/jobs/job-catalogue';
import { FLOW_ENV, Receiver } from '../../api/flows/support';
import { startTestServices, type TestServices } from '../../support/services';

// A step due now is sent by the process that stored it, without a job; the execution's row
// holds it as local until a deadline (docs/flows.md, "Running it"). These tests play the
// process that died holding one: the sweep must queue it as a job, once.

let s: TestServices;
let rx: Receiver;
let companyId: string;

beforeAll(async () => {
  s = await startTestServices(FLOW_ENV);
  rx = await Receiver.start();
  ({ companyId } = await s.company('Local steps'));
});
afterAll(async () => {
  await s.close();
  await rx.close();
});

/** An execution of a one-step flow posting to `path`, held as local by a process that is gone: its deadline passed. */
async function lostLocalStep(path: string): Promise<string> {
  const caller = s.caller(companyId);
  const flow = await s.services.webhooks.create(caller, { name: path, steps: [{ stepNumber: 1, webhookUrl: `${rx.url}${path}` }] });
  const execution = await s.services.flows.trigger(s.caller(companyId), flow.id, { variables: {} });
  // Without job workers this process queued the step as a job: make it the local step of a dead process instead.
  const em = s.orm.em.fork();
  await em.execute(`DELETE FROM pgboss.job WHERE name = 'flow.step' AND data ->> 'executionId' = ?`, [execution.id]);
  await em.execute(`UPDATE webhook_executions SET local_step = 1, local_until = now() - interval '1 second' WHERE id = ?`, [execution.id]);
  return execution.id;
}

const stepJobs = async (executionId: string) =>
  (await s.orm.em.fork().execute(`SELECT data FROM pgboss.job WHERE name = 'flow.step' AND data ->> 'executionId' = ?`, [executionId])).map((r) => r.data as FlowStepJob);

const localOf = async (executionId: string) => (await s.orm.em.fork().execute(`SELECT local_step, local_until FROM webhook_executions WHERE id = ?`, [executionId]))[0];

describe('the flow step sweep', () => {
  it('queues a local step past its deadline as a job, once, and the job sends it', async () => {
    const id = await lostLocalStep('/lost');
    await s.services.flows.sweep();
    await s.services.flows.sweep();
    const jobs = await stepJobs(id);
    expect(jobs).toEqual([{ companyId, executionId: id, attempt: 1, step: 1 }]);
    expect(await localOf(id)).toEqual({ local_step: null, local_until: null });

    await s.services.flows.runStep(s.caller(companyId), jobs[0]);
    expect(rx.at('/lost')).toHaveLength(1);
    expect(await s.services.executions.getById(s.caller(companyId), id)).toMatchObject({ status: 'success' });
  });

  it('leaves a local step before its deadline to its process', async () => {
    const id = await lostLocalStep('/early');
    await s.orm.em.fork().execute(`UPDATE webhook_executions SET local_until = now() + interval '1 minute' WHERE id = ?`, [id]);
    await s.services.flows.sweep();
    expect(await stepJobs(id)).toEqual([]);
    expect(await localOf(id)).toMatchObject({ local_step: 1 });
  });

  it('only releases the local step of an execution already over', async () => {
    const id = await lostLocalStep('/over');
    await s.orm.em.fork().execute(`UPDATE webhook_executions SET status = 'success' WHERE id = ?`, [id]);
    await s.services.flows.sweep();
    expect(await stepJobs(id)).toEqual([]);
    expect(await localOf(id)).toEqual({ local_step: null, local_until: null });
  });
});
