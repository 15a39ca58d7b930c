import http from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { createLogger } from '../../../src/logger';
import { type RelayGate, relayWebSockets } from '../../../src/relay/relay.ws';
import type { Conversation, ConversationEndReason, ConversationOpening, ConversationSink, MachineMoment, SpeechEvent } from '../../../src/services/conversation/conversation';
import { RELAY_PATH } from '../../../src/services/telephony/conversation-relay';
import { routeUpgrades } from '../../../src/upgrades';
import { FakeRelay, RefusedHandshake, type RelayTarget } from '../../support/fake-relay';
import { waitFor } from '../../support/wait';

const TOKEN = 'relay-test-auth-token';
const PUBLIC = 'https://sb.example.test';
const CALL = '0b6f9c1e-3a52-4d7e-9a57-2f1d0c8e4b11';
const SID = 'CA00000000000000000000000000000001';

/**
 * A small conversation that answers by rules, recording every input: enough to see the
 * transport map Twilio's messages to the contract and the contract's outputs to messages.
 */
class ScriptedConversation implements Conversation {
  readonly inputs: string[] = [];
  constructor(private readonly sink: ConversationSink) {}
  async start() {
    this.inputs.push('start');
    this.sink.text('Hello, ', false);
    this.sink.text('Ada.', true);
  }
  async userSaid(text: string, final: boolean) {
    this.inputs.push(`said:${text}:${final}`);
    if (!final) return;
    if (text === 'transfer me') {
      this.sink.transfer('+14155550100', null);
      return;
    }
    if (text === 'warm transfer') {
      this.sink.play('https://cdn.example.com/hold.mp3');
      this.sink.transfer('+14155550100', 'Ada wants to move her appointment.');
      return;
    }
    if (text === 'bye') {
      this.sink.text('Goodbye.', true);
      this.sink.end('agent_hangup');
      return;
    }
    if (text === 'spanish') {
      this.sink.language('es-ES');
      return;
    }
    if (text === 'count') {
      // Pieces of one event-loop turn around a message of another kind, then pieces of a later turn.
      this.sink.text('One, ', false);
      this.sink.text('two, ', false);
      this.sink.text('three', false);
      this.sink.sendDigits('1');
      this.sink.text(', four', false);
      this.sink.text(', five', false);
      setTimeout(() => {
        this.sink.text(', six.', false);
        this.sink.text('', true);
      }, 5);
      return;
    }
    this.sink.text('You said ', false);
    this.sink.text(text, true);
  }
  interrupted(spokenSoFar: string) {
    this.inputs.push(`interrupted:${spokenSoFar}`);
  }
  async dtmf(digit: string) {
    this.inputs.push(`dtmf:${digit}`);
    this.sink.sendDigits(`${digit}w#`);
  }
  speech(event: SpeechEvent) {
    this.inputs.push(event.kind === 'tokensPlayed' ? `played:${event.text}` : `${event.kind}:${event.on ? 'on' : 'off'}:${event.at}`);
  }
  async silence() {
    this.inputs.push('silence');
  }
  async answeringMachine(moment: MachineMoment, message: string | null) {
    this.inputs.push(`machine:${moment}`);
    if (moment === 'greeting') return;
    if (message) this.sink.say(message);
    this.sink.end('voicemail_reached');
  }
  async close(reason: ConversationEndReason) {
    // Storing what it had takes a while (a stand-in for the database, which the test does not wait on): the server's close() must wait for it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    this.inputs.push(`close:${reason}`);
  }
}

let server: http.Server;
let target: RelayTarget;
let relay: ReturnType<typeof relayWebSockets>;
const opened: { callId: string; callSid: string; opening: ConversationOpening; conversation: ScriptedConversation }[] = [];

const gate: RelayGate = {
  async admit(pathAndQuery, signature) {
    if (!twilio.validateRequest(TOKEN, signature, `${PUBLIC.replace(/^http/, 'ws')}${pathAndQuery}`, {})) return null;
    return {
      async open(callId, callSid, sink, opening) {
        if (callId !== CALL || callSid !== SID) return null;
        const conversation = new ScriptedConversation(sink);
        opened.push({ callId, callSid, opening, conversation });
        return conversation;
      },
      release: async () => undefined,
    };
  },
};

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end());
  relay = relayWebSockets(gate, createLogger('silent'), { maxMessages: 20, setupTimeoutMs: 2000 });
  routeUpgrades(server, { [RELAY_PATH]: relay.upgrade });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, publicBaseUrl: PUBLIC, authToken: TOKEN };
});
afterAll(async () => {
  await relay.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => (opened.length = 0));

/** A relay past its setup, with the agent's greeting read. */
async function started(): Promise<{ fake: FakeRelay; conversation: ScriptedConversation }> {
  const fake = await FakeRelay.connect(target);
  fake.setup(CALL, SID);
  expect(await fake.turn()).toMatchObject({ text: 'Hello, Ada.', tokens: 2 });
  return { fake, conversation: opened.at(-1)!.conversation };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 0,
    (err: unknown) => (err instanceof RefusedHandshake ? err.status : -1),
  );

describe('the ConversationRelay websocket', () => {
  it('refuses unsigned and wrongly signed handshakes with 403, before any message', async () => {
    expect(await refusal(FakeRelay.connect(target, null))).toBe(403);
    expect(await refusal(FakeRelay.connect(target, 'not-the-token'))).toBe(403);
    expect(opened).toHaveLength(0);
  });

  it('answers 404 to a handshake on a path nobody serves', async () => {
    expect(await refusal(FakeRelay.connect({ ...target, url: `${target.url}/elsewhere` }))).toBe(404);
  });

  it("opens the call named by setup and streams the agent's turns as text tokens", async () => {
    const { fake, conversation } = await started();
    expect(opened[0]).toMatchObject({ callId: CALL, callSid: SID });
    fake.prompt('I am', false);
    fake.prompt('I am here');
    expect(await fake.turn()).toMatchObject({ text: 'You said I am here', tokens: 2, others: [] });
    fake.interrupt('You said I');
    fake.dtmf('5');
    expect(await fake.next()).toEqual({ type: 'sendDigits', digits: '5w#' });
    expect(conversation.inputs).toEqual(['start', 'said:I am:false', 'said:I am here:true', 'interrupted:You said I', 'dtmf:5']);
    fake.prompt('spanish');
    expect(await fake.next()).toEqual({ type: 'language', ttsLanguage: 'es-ES', transcriptionLanguage: 'es-ES' });
    fake.close();
  });

  it("sends the first piece of text of an event-loop turn at once and the rest of that turn's pieces as one message, in order with the other messages", async () => {
    const { fake } = await started();
    fake.prompt('count');
    const messages = [];
    for (let i = 0; i < 7; i++) messages.push(await fake.next());
    expect(messages).toEqual([
      { type: 'text', token: 'One, ', last: false },
      { type: 'text', token: 'two, three', last: false },
      { type: 'sendDigits', digits: '1' },
      { type: 'text', token: ', four', last: false },
      { type: 'text', token: ', five', last: false },
      { type: 'text', token: ', six.', last: false },
      { type: 'text', token: '', last: true },
    ]);
    fake.close();
  });

  it("passes Twilio's info events on as speech events, each timed by its ts or on arrival, and ignores other info", async () => {
    const { fake, conversation } = await started();
    fake.speaking('client', true, 1_000);
    fake.speaking('client', false, 2_500);
    fake.speaking('agent', true, 3_100);
    fake.played('Hello, Ada.');
    fake.send({ type: 'info', name: 'agentSpeaking', value: 'off', ts: '4200' });
    fake.send({ type: 'info', name: 'roundTripDelayMs', value: '120' });
    fake.send({ type: 'info', name: 'clientSpeaking', value: 'maybe', ts: 5_000 });
    const before = Date.now();
    fake.send({ type: 'info', name: 'clientSpeaking', value: 'on' });
    fake.prompt('still here');
    expect((await fake.turn()).text).toBe('You said still here');
    const arrived = Number(conversation.inputs.at(-2)!.split(':')[2]);
    expect(arrived).toBeGreaterThanOrEqual(before);
    expect(conversation.inputs).toEqual([
      'start',
      'calleeSpeaking:on:1000',
      'calleeSpeaking:off:2500',
      'agentSpeaking:on:3100',
      'played:Hello, Ada.',
      'agentSpeaking:off:4200',
      `calleeSpeaking:on:${arrived}`,
      'said:still here:true',
    ]);
    fake.close();
  });

  it('ignores malformed, unknown and binary messages and keeps the session', async () => {
    const { fake, conversation } = await started();
    fake.send('{not json');
    fake.send({ type: 'prompt', voicePrompt: 42, last: true });
    fake.send({ type: 'teleport', to: 'mars' });
    fake.send({ type: 'dtmf', digit: 'pound' });
    fake.send(JSON.stringify(['prompt']));
    fake.send(Buffer.from(JSON.stringify({ type: 'prompt', voicePrompt: 'binary', last: true })));
    fake.send({ type: 'error', description: 'Invalid message received' });
    fake.prompt('still here');
    expect((await fake.turn()).text).toBe('You said still here');
    expect(conversation.inputs).toEqual(['start', 'said:still here:true']);
    fake.close();
  });

  it('ends the session with the reason as handoff data, and a transfer with its number', async () => {
    const first = await started();
    first.fake.prompt('bye');
    expect(await first.fake.turn()).toMatchObject({ text: 'Goodbye.', tokens: 1, others: [] });
    const end = await first.fake.next();
    expect(end).toEqual({ type: 'end', handoffData: expect.any(String) });
    expect(JSON.parse(end.handoffData as string)).toEqual({ reason: 'agent_hangup' });
    first.fake.close();
    await waitFor('the conversation to close', async () => (first.conversation.inputs.includes('close:agent_hangup') ? true : undefined));

    const second = await started();
    second.fake.prompt('transfer me');
    const transfer = await second.fake.next();
    expect(JSON.parse(transfer.handoffData as string)).toEqual({ reason: 'call_transfer', transfer_to: '+14155550100' });
    second.fake.close();
  });

  it('plays the hold audio (not interruptible), then ends a warm transfer with its summary as handoff data', async () => {
    const { fake } = await started();
    fake.prompt('warm transfer');
    expect(await fake.next()).toEqual({ type: 'play', source: 'https://cdn.example.com/hold.mp3', loop: 1, interruptible: false });
    const end = await fake.next();
    expect(JSON.parse(end.handoffData as string)).toEqual({ reason: 'call_transfer', transfer_to: '+14155550100', summary: 'Ada wants to move her appointment.' });
    fake.close();
  });

  it('tells the conversation the callee hung up when Twilio closes the socket', async () => {
    const { fake, conversation } = await started();
    fake.close();
    await waitFor('the conversation to close', async () => (conversation.inputs.includes('close:user_hangup') ? true : undefined));
  });

  it('closes a session whose setup names no live call of this sid', async () => {
    const fake = await FakeRelay.connect(target);
    fake.setup(CALL, 'CA99999999999999999999999999999999');
    expect(await fake.closed()).toBe(1008);
    expect(opened).toHaveLength(0);
  });

  it("opens the session its TwiML's opening names, and closes one naming an opening it does not know", async () => {
    const resumed = await FakeRelay.connect(target);
    resumed.send({ type: 'setup', callSid: SID, customParameters: { call_id: CALL, opening: 'resumed' } });
    await resumed.turn();
    expect(opened.map((o) => o.opening)).toEqual(['resumed']);
    resumed.close();
    const unknown = await FakeRelay.connect(target);
    unknown.send({ type: 'setup', callSid: SID, customParameters: { call_id: CALL, opening: 'teleported' } });
    expect(await unknown.closed()).toBe(1008);
    expect(opened).toHaveLength(1);
  });

  it('ignores what comes before setup', async () => {
    const fake = await FakeRelay.connect(target);
    fake.prompt('too early');
    fake.setup(CALL, SID);
    expect((await fake.turn()).text).toBe('Hello, Ada.');
    expect(opened[0].conversation.inputs).toEqual(['start']);
    fake.close();
  });

  it('bounds each session: message count and message size', async () => {
    const many = await started();
    for (let i = 0; i < 25; i++) many.fake.dtmf('1');
    expect(await many.fake.closed()).toBe(1008);
    expect(many.conversation.inputs.filter((i) => i === 'dtmf:1').length).toBeLessThanOrEqual(20);

    const big = await started();
    big.fake.prompt('x'.repeat(70 * 1024));
    expect(await big.fake.closed()).toBe(1009);
  });

  it('closes a socket that never sends setup', async () => {
    const fake = await FakeRelay.connect(target);
    expect(await fake.closed(5000)).toBe(1008);
  });
});

describe('stopping the relay', () => {
  it('closes open sessions (1001) and waits for their conversations to finish storing', async () => {
    const { fake, conversation } = await started();
    await relay.close();
    expect(await fake.closed()).toBe(1001);
    expect(conversation.inputs.at(-1)).toBe('close:user_hangup');
    expect(await refusal(FakeRelay.connect(target))).toBe(503);
  });
});
