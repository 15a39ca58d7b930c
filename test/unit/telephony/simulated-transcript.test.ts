import { SimulatedTelephony } from '../../../src/services/telephony/simulated.telephony';

// Without a language model, a simulated call answered by a person ends with a canned
// transcript (docs/calls.md, "Providers"): the agent's greeting and a plain scripted exchange.

const provider = new SimulatedTelephony({ ringMs: 0, talkMs: 10_000 });
const agent = { name: 'Ava', language: 'en-US', whoTalksFirst: 'agent', welcomeGreeting: null, voicemailAction: 'hangup' as const, voicemailMessage: '', agentDynamicVariables: {} };
const answeredAt = new Date('2026-11-26T10:00:00Z');
const call = (vars: { name: string; value: string }[]) => ({
  id: '0b6f9c1e-3a52-4d7e-9a57-2f1d0c8e4b11',
  callFrom: '+14155552671',
  callTo: '+14155550123',
  callDirection: 'outgoing',
  agentDynamicVariables: vars,
  startedAt: answeredAt,
});

describe('the canned transcript of a simulated call', () => {
  it.each([
    ['with a first name', [{ name: 'firstname', value: 'Ada' }], 'Hello Ada, this is Ava.'],
    ['without one', [], 'Hello, this is Ava.'],
  ])('greets the callee %s, then a plain scripted exchange', (_, vars, greeting) => {
    const { update } = provider.outcome('hangup', call(vars), agent, new Date('2026-11-26T10:00:10Z'));
    const turns = update.transcript!.turns;
    expect(turns[0]).toEqual({ role: 'agent', text: greeting, at: answeredAt.toISOString() });
    expect(turns.map((t) => t.role)).toEqual(['agent', 'user', 'agent', 'user', 'agent']);
    expect(turns.at(-1)).toMatchObject({ role: 'agent', text: 'Thank you for your time. Goodbye!' });
  });

  it("opens with the agent's welcome greeting when it has one, placeholders filled", () => {
    const greeter = { ...agent, welcomeGreeting: 'Hi {{firstname}}, Acme here, calling {{to}}.' };
    const { update } = provider.outcome('hangup', call([{ name: 'firstname', value: 'Ada' }]), greeter, new Date('2026-11-26T10:00:10Z'));
    expect(update.transcript!.turns[0]).toMatchObject({ role: 'agent', text: 'Hi Ada, Acme here, calling +14155550123.' });
  });
});
