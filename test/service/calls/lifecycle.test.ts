import { Call } from '../../../src/entities';
import type { CallStatus } from '../../../src/entities/call.entity';
import type { StatusUpdate } from '../../../src/services/telephony/telephony';
import { ManualClock } from '../../support/clock';
import { startTestServices, type TestServices } from '../../support/services';

// A call's transitions as the lifecycle stores them (docs/calls.md, "Statuses", "Cost"): each
// provider update applied at the service level on a manual clock, the call read back as the
// API answers it. What each update decides: test/unit/calls/call-transitions.test.ts; calls
// moved by the simulated provider, end to end over HTTP: test/api/calls/lifecycle.test.ts.

const clock = new ManualClock(new Date('2026-11-23T15:00:00Z'));
let s: TestServices;
let companyId: string;
let agentId: string;
let unique = 0;
const FROM = '+14155552671';

const caller = () => s.caller(companyId);

beforeAll(async () => {
  s = await startTestServices({ CALL_PRICE_PER_MINUTE: '0.6' }, { clock });
  ({ companyId } = await s.company('A'));
  ({ id: agentId } = await s.services.agents.create(caller(), { name: 'A agent' }));
  await s.services.phoneNumbers.create(caller(), { phoneNumber: FROM });
});
afterAll(() => s.close());

/** A call stored as make-call stores it (`pstn-queued`), to a fresh number; optionally of a contact of that number. */
async function queued(withContact = false): Promise<{ id: string; contactId: string | null }> {
  unique += 1;
  const to = `+1212555${String(2000 + unique)}`;
  if (!withContact) return { ...(await s.services.calls.makeCall(caller(), { aiAgentId: agentId, callFrom: FROM, callTo: to })), contactId: null };
  const contact = (await s.services.contacts.create(caller(), { phoneNumber: to })) as { id: string };
  const em = s.orm.em.fork();
  const call = em.create(Call, { company: companyId, aiAgent: agentId, contact: contact.id, callProvider: 'simulated', callFrom: FROM, callTo: to, priceUnit: 'USD' }, { persist: false });
  await em.insert(call);
  return { id: call.id, contactId: contact.id };
}

const update = (id: string, status: CallStatus, fields: Partial<StatusUpdate> = {}) => s.services.lifecycle.applyUpdate({ id, companyId }, { status, at: clock.now(), ...fields });
const read = (id: string) => s.services.calls.get(caller(), id);
const after = (seconds: number) => clock.advance(seconds * 1000);

describe('a call answered and completed', () => {
  it('is started when answered, ended when completed, its duration measured between and its cost stamped', async () => {
    const { id } = await queued();
    expect(await update(id, 'ringing')).toBe(true);
    after(3);
    const answeredAt = clock.now();
    expect(await update(id, 'in-progress')).toBe(true);
    expect(await read(id)).toMatchObject({ callStatus: 'in-progress', startedAt: answeredAt, endedAt: null, callDuration: 0 });
    after(125);
    expect(await update(id, 'completed')).toBe(true);
    expect(await read(id)).toMatchObject({
      callStatus: 'completed',
      startedAt: answeredAt,
      endedAt: clock.now(),
      callDuration: 125,
      disconnectReason: 'completed',
      cost: 1.25,
      costBreakdown: { telephony: 1.25, llm: 0, recording: 0, total: 1.25 },
    });
  });

  it('takes the provider’s duration over the measured one', async () => {
    const { id } = await queued();
    await update(id, 'in-progress');
    after(10);
    await update(id, 'completed', { durationS: 42 });
    expect(await read(id)).toMatchObject({ callDuration: 42, cost: 0.42 });
  });

  it('never seen in progress, starts and ends at once: 0 s', async () => {
    const { id } = await queued();
    await update(id, 'completed');
    expect(await read(id)).toMatchObject({ callStatus: 'completed', startedAt: clock.now(), endedAt: clock.now(), callDuration: 0 });
  });
});

describe('a call that ends unanswered', () => {
  it.each(['busy', 'no-answer', 'canceled', 'failed'] as const)('%s: never started, 0 s, no cost, its status its reason', async (status) => {
    const { id } = await queued();
    await update(id, 'ringing');
    after(20);
    await update(id, status);
    expect(await read(id)).toMatchObject({ callStatus: status, startedAt: null, endedAt: clock.now(), callDuration: 0, cost: 0, disconnectReason: status });
  });
});

describe('the disconnect reason', () => {
  it('is the ending update’s, over one recorded while the call was live', async () => {
    const { id } = await queued();
    await update(id, 'in-progress');
    await s.orm.em.fork().nativeUpdate(Call, { id }, { disconnectReason: 'agent_hangup' });
    await update(id, 'failed', { disconnectReason: 'provider_error' });
    expect((await read(id)).disconnectReason).toBe('provider_error');
  });

  it('is the one recorded while live when the ending update gives none (the relay session’s)', async () => {
    const { id } = await queued();
    await update(id, 'in-progress');
    await s.orm.em.fork().nativeUpdate(Call, { id }, { disconnectReason: 'agent_hangup' });
    await update(id, 'completed');
    expect((await read(id)).disconnectReason).toBe('agent_hangup');
  });

  it('is not written by a live update', async () => {
    const { id } = await queued();
    await update(id, 'ringing', { disconnectReason: 'too early' });
    expect((await read(id)).disconnectReason).toBe('');
  });
});

describe('stale provider updates', () => {
  it('change nothing: duplicates, and updates that would move a call backwards or end it twice', async () => {
    const { id } = await queued();
    await update(id, 'in-progress');
    after(5);
    await update(id, 'completed');
    const ended = await read(id);
    after(60);
    expect(await update(id, 'ringing')).toBe(false);
    expect(await update(id, 'in-progress')).toBe(false);
    expect(await update(id, 'completed', { durationS: 99 })).toBe(false);
    expect(await update(id, 'failed')).toBe(false);
    expect(await update(id, 'pstn-queued')).toBe(false);
    expect(await read(id)).toEqual(ended);
  });
});

describe('the contact of a call', () => {
  it.each([
    ['completed', {}, 'picked-up', 30],
    ['busy', {}, 'busy', 0],
    ['failed', {}, 'unreachable', 0],
    ['no-answer', {}, 'no-answer', 0],
    ['canceled', {}, 'canceled', 0],
    ['completed', { disconnectReason: 'voicemail_reached' }, 'voicemail', 30],
  ] as const)('a call ending %s %j mirrors %s on its contact', async (status, fields, mirrored, duration) => {
    const { id, contactId } = await queued(true);
    if (status === 'completed') await update(id, 'in-progress');
    const answeredAt = clock.now();
    expect(await s.services.contacts.get(caller(), contactId!)).toMatchObject({ lastCallStatus: status === 'completed' ? 'in-progress' : null });
    after(30);
    await update(id, status, fields);
    const call = await read(id);
    expect(await s.services.contacts.get(caller(), contactId!)).toMatchObject({
      lastCallStatus: mirrored,
      lastCallDuration: duration,
      lastCallAt: status === 'completed' ? answeredAt : call.createdAt,
    });
  });
});
