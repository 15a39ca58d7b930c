import { Call } from '../../../src/entities';
import { ManualClock } from '../../support/clock';
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
const clock = new ManualClock(new Date());
const env = () => ({ TELEPHONY_PROVIDER: 'twilio', TWILIO_API_BASE_URL: fake.url, TWILIO_ACCOUNT_SID: TWILIO_SID, TWILIO_AUTH_TOKEN: TWILIO_TOKEN, PUBLIC_BASE_URL: TWILIO_PUBLIC });

beforeAll(async () => {
  fake = await fakeTwilio();
});
afterAll(() => fake.close());

async function outage(s: TestServices, on: boolean): Promise<void> {
  const sql = on
    ? `CREATE FUNCTION refuse_sids() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'terminating connection due to administrator command' USING ERRCODE = 'admin_shutdown'; END $$;
       CREATE TRIGGER outage BEFORE UPDATE OF call_sid ON calls FOR EACH ROW WHEN (NEW.call_sid <> OLD.call_sid) EXECUTE FUNCTION refuse_sids();`
    : 'DROP TRIGGER outage ON calls; DROP FUNCTION refuse_sids();';
  await s.orm.em.getConnection().execute(sql);
}

/** A test call of a new company, dispatched (its slot taken and placed) during an outage. */
async function placedDuringOutage(s: TestServices, to: string) {
  const { companyId } = await s.company();
  const caller = () => s.caller(companyId);
  const agent = await s.services.agents.create(caller(), { name: 'Agent', prompt: 'Hello' });
  const from = nextFrom();
  await s.services.phoneNumbers.create(caller(), { phone_number: from, label: 'main' });
  const call = await s.services.calls.makeCall(caller(), { ai_agent_id: agent.id, call_from: from, call_to: to });
  await outage(s, true);
  await s.services.lifecycle.dispatch(caller());
  return { companyId, callId: call.id, caller };
}

const sidOf = async (s: TestServices, callId: string) =>
  ((await s.orm.em.getConnection().execute('SELECT call_sid FROM calls WHERE id = ?', [callId])) as { call_sid: string }[])[0]!.call_sid;
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
      expect(await sidOf(s, callId)).toBe(dialsTo(to)[0]!.sid);
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
      const sid = dialsTo(to)[0]!.sid;
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
