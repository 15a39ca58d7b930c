import { Call } from '../../../src/entities';
import twilio from 'twilio';
import { ManualClock } from '../../support/clock';
import { FakeLlm } from '../../support/fake-llm';
import { fakeTwilio, TWILIO_PUBLIC, TWILIO_SID, TWILIO_TOKEN } from '../../support/fake-twilio';
import { startTestServices, type TestServices } from '../../support/services';

// A short database outage while a Twilio call is placed (docs/calls.md, "Outages"): Twilio
// accepts the call, and the statement storing its sid fails. The outage is the database
// refusing that write (a trigger raising PostgreSQL's `admin_shutdown` error, as a backend
// terminated by a restart answers), so the services meet a real failed statement.

/** A number of each company's own: a number belongs to one company at a time. */
let numbers = 0;
const nextFrom = () => `+1415555${String(2700 + ++numbers)}`;
let fake: Awaited<ReturnType<typeof fakeTwilio>>;
let llm: FakeLlm;
const clock = new ManualClock(new Date());
const env = () => ({
  TELEPHONY_PROVIDER: 'twilio',
  TWILIO_API_BASE_URL: fake.url,
  TWILIO_ACCOUNT_SID: TWILIO_SID,
  TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
  PUBLIC_BASE_URL: TWILIO_PUBLIC,
  LLM_BASE_URL: llm.baseUrl,
  LLM_MODEL: 'fake-model',
});

beforeAll(async () => {
  fake = await fakeTwilio();
  llm = await FakeLlm.start();
});
afterAll(async () => {
  await fake.close();
  await llm.close();
});

/** Starts (`on`) or ends an outage of the writes to calls: of their sids only, or of every column. */
async function outage(s: TestServices, on: boolean, of: 'sids' | 'calls' = 'sids'): Promise<void> {
  const sql = on
    ? `CREATE FUNCTION refuse_writes() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'terminating connection due to administrator command' USING ERRCODE = 'admin_shutdown'; END $$;
       CREATE TRIGGER outage BEFORE UPDATE ${of === 'sids' ? 'OF call_sid' : ''} ON calls FOR EACH ROW EXECUTE FUNCTION refuse_writes();`
    : 'DROP TRIGGER outage ON calls; DROP FUNCTION refuse_writes();';
  await s.orm.em.getConnection().execute(sql);
}

/** Twilio's status callback for `callId`, as the route hands it to the service (signed for the public URL). */
async function statusCallback(s: TestServices, callId: string, params: Record<string, string>): Promise<void> {
  const url = `${TWILIO_PUBLIC}/v1/telephony/twilio/status?call_id=${callId}`;
  await s.services.lifecycle.receiveTwilioStatus(url, params, twilio.getExpectedTwilioSignature(TWILIO_TOKEN, url, params));
}

/** A test call of a new company, dispatched (its slot taken and placed) during an outage. */
async function placedDuringOutage(s: TestServices, to: string) {
  const { companyId } = await s.company();
  const caller = () => s.caller(companyId);
  const agent = await s.services.agents.create(caller(), { name: 'Agent', prompt: 'Hello' });
  const from = nextFrom();
  await s.services.phoneNumbers.create(caller(), { phoneNumber: from, label: 'main' });
  const call = await s.services.calls.makeCall(caller(), { aiAgentId: agent.id, callFrom: from, callTo: to });
  await outage(s, true);
  await s.services.lifecycle.dispatch(caller());
  return { companyId, callId: call.id, caller };
}

const callOf = async (s: TestServices, callId: string) =>
  (
    await s.orm.em.getConnection().execute<{ call_sid: string; call_status: string; disconnect_reason: string }[]>('SELECT call_sid, call_status, disconnect_reason FROM calls WHERE id = ?', [callId])
  )[0];
const sidOf = async (s: TestServices, callId: string) => (await callOf(s, callId)).call_sid;
const dialsTo = (to: string) => fake.calls.filter((c) => c.to === to);

describe('a Twilio call placed while the database refuses its sid', () => {
  it('keeps the sid until it is stored, and the sweep does not dial it again', async () => {
    const s = await startTestServices(env(), { clock });
    try {
      const to = '+14155550101';
      const { callId, caller } = await placedDuringOutage(s, to);
      expect(dialsTo(to)).toHaveLength(1);
      expect(await sidOf(s, callId)).toBe('');
      await outage(s, false);
      clock.advance(31_000);
      await s.services.lifecycle.sweep();
      // What a call.place job the sweep may have queued does.
      await s.services.lifecycle.place(caller(), callId);
      expect(dialsTo(to)).toHaveLength(1);
      expect(await sidOf(s, callId)).toBe(dialsTo(to)[0].sid);
    } finally {
      await s.close();
    }
  });

  it('adopts the call Twilio already has when the process that placed it is gone, instead of dialling again', async () => {
    const first = await startTestServices(env(), { clock });
    const second = await startTestServices(env(), { clock, databaseUrl: first.databaseUrl });
    try {
      const to = '+14155550102';
      const { callId, companyId } = await placedDuringOutage(first, to);
      await first.stopWork();
      await outage(second, false);
      clock.advance(31_000);
      await second.services.lifecycle.sweep();
      await second.services.lifecycle.place(second.caller(companyId), callId);
      expect(dialsTo(to)).toHaveLength(1);
      const sid = dialsTo(to)[0].sid;
      expect(await sidOf(second, callId)).toBe(sid);
      // With its sid stored, cancel hangs the call up at Twilio.
      const caller = second.caller(companyId);
      await second.services.lifecycle.cancel(caller, await caller.em.findOneOrFail(Call, { id: callId, company: companyId }));
      expect(fake.received.some((r) => r.method === 'POST' && r.path.endsWith(`/Calls/${sid}.json`) && r.form.get('Status') === 'canceled')).toBe(true);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('a call dispatched by a process that died before placing it', () => {
  it('is dialled once when two replicas place it again at once', async () => {
    const first = await startTestServices(env(), { clock });
    const second = await startTestServices(env(), { clock, databaseUrl: first.databaseUrl });
    try {
      const to = '+14155550106';
      const { companyId } = await first.company();
      const caller = first.caller(companyId);
      const agent = await first.services.agents.create(caller, { name: 'Agent', prompt: 'Hello' });
      const from = nextFrom();
      await first.services.phoneNumbers.create(caller, { phoneNumber: from, label: 'main' });
      const call = await first.services.calls.makeCall(caller, { aiAgentId: agent.id, callFrom: from, callTo: to });
      // Given its slot 31 s ago by a process that died before dialling it.
      await first.orm.em.getConnection().execute('UPDATE calls SET dispatched_at = ? WHERE id = ?', [new Date(clock.now().getTime() - 31_000), call.id]);
      // The call.place jobs of two sweeps, run by two replicas at once.
      await Promise.all([first.services.lifecycle.place(first.caller(companyId), call.id), second.services.lifecycle.place(second.caller(companyId), call.id)]);
      expect(dialsTo(to)).toHaveLength(1);
      expect(await sidOf(first, call.id)).toBe(dialsTo(to)[0].sid);
      // A job queued before the placing, run after it, dials nothing either.
      clock.advance(31_000);
      await first.services.lifecycle.place(first.caller(companyId), call.id);
      expect(dialsTo(to)).toHaveLength(1);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('Twilio callbacks and an outage', () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await startTestServices(env(), { clock });
  });
  afterAll(() => s.close());

  /** A call placed and stored with its sid, not yet answered. */
  async function placed(to: string) {
    const { callId, companyId } = await placedDuringOutage(s, to);
    await outage(s, false);
    await s.services.lifecycle.sweep();
    const sid = await sidOf(s, callId);
    expect(sid).not.toBe('');
    return { callId, companyId, sid };
  }

  it('answers a callback the database refuses, keeps it, and applies it once the database is back', async () => {
    const { callId, sid } = await placed('+14155550103');
    await outage(s, true, 'calls');
    await statusCallback(s, callId, { CallSid: sid, AccountSid: TWILIO_SID, CallStatus: 'ringing' });
    expect((await callOf(s, callId)).call_status).toBe('pstn-queued');
    await outage(s, false, 'calls');
    await s.services.lifecycle.sweep();
    expect((await callOf(s, callId)).call_status).toBe('ringing');
  });

  it('stores the CallSid of a callback for a call whose sid was lost', async () => {
    // Placed by another process, which stops (losing the sid it kept) before the database is back.
    const other = await startTestServices(env(), { clock, databaseUrl: s.databaseUrl });
    const { callId } = await placedDuringOutage(other, '+14155550104');
    await other.close();
    await outage(s, false);
    const sid = dialsTo('+14155550104')[0].sid;
    await statusCallback(s, callId, { CallSid: sid, AccountSid: TWILIO_SID, CallStatus: 'ringing' });
    expect(await callOf(s, callId)).toMatchObject({ call_sid: sid, call_status: 'ringing' });
  });

  it('reconciles a quiet live call with Twilio, whose lost completion ends it and has it analysed', async () => {
    const { callId, sid } = await placed('+14155550105');
    await statusCallback(s, callId, { CallSid: sid, AccountSid: TWILIO_SID, CallStatus: 'in-progress' });
    Object.assign(
      fake.calls.find((c) => c.sid === sid)!,
      { status: 'completed', duration: '42' },
    );
    await s.services.lifecycle.sweep();
    expect((await callOf(s, callId)).call_status).toBe('in-progress');
    clock.advance(61_000);
    await s.services.lifecycle.sweep();
    expect(await callOf(s, callId)).toMatchObject({ call_status: 'completed', disconnect_reason: 'completed' });
    expect(fake.received.some((r) => r.method === 'GET' && r.path.endsWith(`/Calls/${sid}.json`))).toBe(true);
    const jobs = await s.orm.em.getConnection().execute(`SELECT 1 FROM pgboss.job WHERE name = 'call.analyze' AND data->>'callId' = ?`, [callId]);
    expect(jobs).toHaveLength(1);
  });
});
