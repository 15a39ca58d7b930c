import { CALL_ANSWERED_NOTE } from '../../../src/services/conversation/chat-history';
import { APOLOGY, REMINDER } from '../../../src/services/conversation/engine';
import { speakingMs } from '../../../src/services/conversation/playback';
import { FakeTimers } from '../../support/clock';
import { FakeLlm } from '../../support/fake-llm';
import { waitFor } from '../../support/wait';
import { agent, engineOn } from '../../api/conversation/support';

let llm: FakeLlm;
beforeAll(async () => {
  llm = await FakeLlm.start();
});
afterAll(() => llm.close());
beforeEach(() => {
  llm.requests.length = 0;
  llm.fallback = {};
});

const lastMessage = (i = -1) => llm.requests.at(i)!.messages.at(-1);

describe('the conversation engine', () => {
  it('greets first with the agent prompt filled from the call, streaming each token to the transport', async () => {
    llm.reply({ text: 'Hi Ada, this is Ava from Acme about your Gold renewal.' });
    const { engine, sink, transcript, turnsSpoken } = engineOn(llm);
    await engine.start();
    expect(await turnsSpoken(1)).toEqual(['Hi Ada, this is Ava from Acme about your Gold renewal.']);
    const request = llm.requests[0];
    expect(request).toMatchObject({ model: 'fake-model', stream: true, temperature: 0.6 });
    expect(request.messages[0].role).toBe('system');
    expect(request.messages[0].content).toContain('You are Ava from Acme. Remind Ada about the Gold renewal.');
    expect(request.tools.map((t: any) => t.function.name)).toEqual(['end_call', 'press_digits', 'do_not_call']);
    expect(sink.events.filter((e) => e.type === 'text').length).toBeGreaterThan(5);
    expect(transcript()).toEqual([
      { role: 'agent', text: 'Hi Ada, this is Ava from Acme about your Gold renewal.', at: expect.any(Date), latency: { llmFirstTokenMs: expect.any(Number), firstTextMs: expect.any(Number) } },
    ]);
  });

  it('waits for the callee when the user talks first, answers final utterances only, and measures the latency', async () => {
    const { engine, transcript, turnsSpoken } = engineOn(llm, { agent: agent({ whoTalksFirst: 'user' }) });
    await engine.start();
    await engine.userSaid('Hello, who', false);
    expect(llm.requests).toHaveLength(0);
    llm.reply({ text: 'Hi, this is Ava.', firstTokenDelayMs: 150 });
    await engine.userSaid('Hello, who is this?', true);
    expect(await turnsSpoken(1)).toEqual(['Hi, this is Ava.']);
    expect(lastMessage()).toEqual({ role: 'user', content: 'Hello, who is this?' });
    const [user, reply] = transcript();
    expect(user).toMatchObject({ role: 'user', text: 'Hello, who is this?' });
    expect(reply).toMatchObject({ role: 'agent', text: 'Hi, this is Ava.' });
    expect(reply.latencyMs).toBeGreaterThanOrEqual(150);
    expect(reply.latencyMs).toBeLessThan(1500);
  });

  it('keeps only what the callee heard of a turn they interrupted', async () => {
    llm.reply({ text: 'Hello Ada, I am calling about your plan renewal and a special offer today.', chunkDelayMs: 40 });
    const { engine, sink, transcript } = engineOn(llm);
    void engine.start();
    await waitFor('the first tokens', async () => (sink.events.length >= 3 ? true : undefined));
    engine.interrupted('Hello Ada,');
    llm.reply({ text: 'Sure, go ahead.' });
    await engine.userSaid('Sorry, one question', true);
    const history = llm.requests[1].messages;
    expect(history.slice(2)).toEqual([
      { role: 'assistant', content: 'Hello Ada,' },
      { role: 'user', content: 'Sorry, one question' },
    ]);
    expect(transcript().map((t) => [t.role, t.text])).toEqual([
      ['agent', 'Hello Ada,'],
      ['user', 'Sorry, one question'],
      ['agent', 'Sure, go ahead.'],
    ]);
  });

  it('cuts a finished turn that was still being spoken when interrupted', async () => {
    llm.reply({ text: 'Your renewal is due on Friday, and the price stays the same.' });
    const { engine, transcript } = engineOn(llm);
    await engine.start();
    engine.interrupted('Your renewal is due on Friday');
    llm.reply({ text: 'Of course.' });
    await engine.userSaid('Wait', true);
    expect(llm.requests[1].messages[2]).toEqual({ role: 'assistant', content: 'Your renewal is due on Friday' });
    expect(transcript()[0].text).toBe('Your renewal is due on Friday');
  });

  it('stores no agent turn, and sends no empty assistant message, when an interruption came before any word was heard', async () => {
    llm.reply({ text: 'Your renewal is due on Friday.' });
    const { engine, sink, transcript } = engineOn(llm);
    await engine.start();
    engine.interrupted('');
    llm.reply({ text: 'Hello Ada, I am calling about your plan renewal and a special offer today.', chunkDelayMs: 40 });
    void engine.userSaid('Hello?', true);
    await waitFor('the answer to start', async () => (sink.events.filter((e) => e.type === 'text').length >= 12 ? true : undefined));
    engine.interrupted(' ');
    llm.reply({ text: 'Sure.' });
    await engine.userSaid('Who is this?', true);
    expect(transcript().map((t) => [t.role, t.text])).toEqual([
      ['user', 'Hello?'],
      ['user', 'Who is this?'],
      ['agent', 'Sure.'],
    ]);
    expect(llm.requests[2].messages.slice(1)).toEqual([{ role: 'user', content: 'Hello?\nWho is this?' }]);
  });

  it('answers a burst of utterances with one model request, and newer input supersedes the request in flight', async () => {
    const { engine, transcript, turnsSpoken } = engineOn(llm, { agent: agent({ whoTalksFirst: 'user' }) });
    await engine.start();
    llm.fallback = { text: 'Sure, I can help with all of that.' };
    await Promise.all(['Hi.', 'I have a question.', 'About my bill.', 'And my plan.'].map((said) => engine.userSaid(said, true)));
    expect(llm.requests).toHaveLength(1);
    // Turns of one role reach the model merged (chat-history.ts).
    expect(llm.requests[0].messages.slice(1)).toEqual([{ role: 'user', content: 'Hi.\nI have a question.\nAbout my bill.\nAnd my plan.' }]);

    llm.reply({ text: 'Let me look that up for you right away.', firstTokenDelayMs: 300 });
    const first = engine.userSaid('What do I owe?', true);
    await waitFor('the request in flight', async () => (llm.requests.length === 2 ? true : undefined));
    await Promise.all([first, engine.userSaid('And when is it due?', true)]);
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[2].messages.at(-1)).toEqual({ role: 'user', content: 'What do I owe?\nAnd when is it due?' });
    expect(await turnsSpoken(2)).toEqual(['Sure, I can help with all of that.', 'Sure, I can help with all of that.']);
    expect(transcript().filter((t) => t.role === 'agent')).toHaveLength(2);
  });

  it('waits before answering under a low responsiveness, so an utterance that follows joins the same answer', async () => {
    const { engine, transcript, turnsSpoken } = engineOn(llm, { agent: agent({ whoTalksFirst: 'user', responsiveness: 35 }) });
    await engine.start();
    llm.reply({ text: 'Hi, this is Ava.' });
    const first = engine.userSaid('Hello,', true);
    await waitFor('the first utterance taken', async () => (transcript().length === 1 ? true : undefined), 2000, 5);
    expect(llm.requests).toHaveLength(0);
    await engine.userSaid('who is this?', true);
    await first;
    expect(await turnsSpoken(1)).toEqual(['Hi, this is Ava.']);
    expect(llm.requests).toHaveLength(1);
    expect(lastMessage()).toEqual({ role: 'user', content: 'Hello,\nwho is this?' });
    // 50 - 35 = 15 points of 20 ms: 300 ms before the model is asked.
    expect(transcript().at(-1)!.latencyMs).toBeGreaterThanOrEqual(300);
  });

  it('tells the model the keys the callee pressed', async () => {
    const { engine, transcript } = engineOn(llm, { agent: agent({ whoTalksFirst: 'user' }) });
    await engine.start();
    await engine.dtmf('5');
    await engine.dtmf('not a key');
    expect(llm.requests).toHaveLength(1);
    expect(lastMessage()).toEqual({ role: 'user', content: '[The caller pressed 5]' });
    expect(transcript()[0]).toMatchObject({ role: 'user', text: '[pressed 5]' });
  });

  it('ends the call with end_call after the last words', async () => {
    llm.reply({ text: 'Goodbye Ada!', toolCalls: [{ name: 'end_call', arguments: { reason: 'done' } }] });
    const { engine, sink } = engineOn(llm);
    await engine.start();
    expect(sink.events.slice(-3)).toEqual([
      { type: 'text', token: 'Ada!', last: false },
      { type: 'text', token: '', last: true },
      { type: 'end', reason: 'agent_hangup' },
    ]);
    await engine.userSaid('Wait!', true);
    expect(llm.requests).toHaveLength(1);
  });

  it('puts the number on the do-not-call list and ends after the goodbye said with the tool call', async () => {
    llm.reply({ text: 'Of course, we will not call you again. Goodbye!', toolCalls: [{ name: 'do_not_call', arguments: {} }] });
    const { engine, sink, optOut } = engineOn(llm);
    await engine.start();
    expect(optOut.asked).toBe(1);
    expect(llm.requests).toHaveLength(1);
    expect(sink.turns()).toEqual(['Of course, we will not call you again. Goodbye!']);
    expect(sink.events.at(-1)).toEqual({ type: 'end', reason: 'agent_hangup' });
  });

  it('asks the model for its goodbye when do_not_call came without words, then ends; tool calls of the goodbye change nothing', async () => {
    llm.reply({ toolCalls: [{ name: 'do_not_call', arguments: {} }] }, { text: 'Done, you will not hear from us again. Goodbye.', toolCalls: [{ name: 'do_not_call', arguments: {} }] });
    const { engine, sink, optOut, transcript } = engineOn(llm);
    await engine.start();
    expect(optOut.asked).toBe(1);
    const told = llm.requests[1].messages.at(-1);
    expect(told).toMatchObject({ role: 'tool', content: 'The number is on the do-not-call list: it will not be called again. Say a short goodbye; the call ends after it.' });
    expect(sink.turns()).toEqual(['Done, you will not hear from us again. Goodbye.']);
    expect(sink.events.at(-1)).toEqual({ type: 'end', reason: 'agent_hangup' });
    expect(transcript().map((t) => t.text)).toEqual(['Done, you will not hear from us again. Goodbye.']);
  });

  it('tells the model when the number could not be listed, and the call goes on', async () => {
    llm.reply({ toolCalls: [{ name: 'do_not_call', arguments: {} }] }, { text: 'Sorry, I could not do that right now.' });
    const { engine, sink, optOut } = engineOn(llm);
    optOut.outcome = new Error('database unavailable');
    await engine.start();
    expect(llm.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', content: 'Error: the number could not be put on the do-not-call list just now.' });
    expect(sink.turns()).toEqual(['Sorry, I could not do that right now.']);
    expect(sink.ending()).toBeUndefined();
  });

  it('transfers only to a number the agent allows, telling the model when it may not', async () => {
    const allowed = agent({ agentFlow: { transfer_numbers: ['+14155550199'] } });
    llm.reply(
      { toolCalls: [{ name: 'transfer_call', arguments: { number: '+19995550000' } }] },
      { text: 'Let me get you to sales.', toolCalls: [{ name: 'transfer_call', arguments: { number: '+1 (415) 555-0199' } }] },
    );
    const { engine, sink } = engineOn(llm, { agent: allowed });
    await engine.start();
    expect(llm.requests[0].tools.find((t: any) => t.function.name === 'transfer_call').function.parameters.properties.number.enum).toEqual(['+14155550199']);
    const refused = llm.requests[1].messages.at(-1);
    expect(refused).toMatchObject({ role: 'tool', tool_call_id: 'call_0_fake' });
    // The error says only "not allowed": the allowed numbers are not the caller's to learn.
    expect(refused.content).toBe('Error: transferring to that number is not allowed.');
    expect(sink.ending()).toEqual({ type: 'transfer', number: '+14155550199', summary: null });
    expect(sink.turns()).toEqual(['Let me get you to sales.']);
  });

  it('presses digits for a phone menu and answers every tool call, unknown ones included', async () => {
    llm.reply(
      {
        toolCalls: [
          { name: 'press_digits', arguments: { digits: '1#' } },
          { name: 'fly', arguments: {} },
          { name: 'press_digits', arguments: '{"digits":' },
        ],
      },
      { text: 'Waiting for the menu.' },
    );
    const { engine, sink } = engineOn(llm);
    await engine.start();
    expect(sink.events.filter((e) => e.type === 'digits')).toEqual([{ type: 'digits', digits: '1#' }]);
    const messages = llm.requests[1].messages;
    expect(messages.at(-4)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_0_fake', type: 'function', function: { name: 'press_digits', arguments: '{"digits":"1#"}' } }, {}, {}] });
    expect(messages.slice(-3).map((m: any) => [m.role, m.tool_call_id, m.content])).toEqual([
      ['tool', 'call_0_fake', 'Pressed 1#.'],
      ['tool', 'call_1_fake', 'Error: there is no tool named fly.'],
      ['tool', 'call_2_fake', 'Error: the arguments are not a JSON object.'],
    ]);
    expect(sink.turns()).toEqual(['Waiting for the menu.']);
    expect(sink.ending()).toBeUndefined();
  });

  it.each([
    ['answers HTTP 400 (not worth asking again)', { status: 400 }],
    ['is slower than its timeout to the first token', { firstTokenDelayMs: 1500 }],
    ['cuts the stream', { text: 'I can certainly help you with that today', cutAfterChunks: 3 }],
    ['sends garbage', { garbage: true }],
  ])('apologises and ends with llm_error when the model %s', async (_, reply) => {
    llm.reply(reply);
    const { engine, sink, transcript } = engineOn(llm, { timeoutMs: 400 });
    await engine.start();
    const spoken = sink.turns();
    expect(spoken).toHaveLength(1);
    expect(spoken[0].endsWith(APOLOGY)).toBe(true);
    expect(sink.events.at(-1)).toEqual({ type: 'end', reason: 'llm_error' });
    expect(transcript().at(-1)).toMatchObject({ role: 'agent', text: spoken[0] });
  });

  it('reminds a silent callee, then hangs up after the maximum silence; speech starts the count again', async () => {
    const clock = new FakeTimers();
    const line = 'Are you still there?';
    llm.fallback = { text: line };
    const { engine, sink, turnsSpoken } = engineOn(llm, { clock, silence: { reminderMs: { from: 150, to: 150 }, maxMs: 700 } });
    await engine.start();
    // Silence counts from the estimated end of each turn's voice (docs/calls.md, "Playback").
    const spoken = speakingMs(line);
    clock.advance(spoken + 150);
    await turnsSpoken(2);
    expect(lastMessage(1)).toEqual({ role: 'user', content: REMINDER });
    await engine.userSaid('Yes, sorry', true);
    await turnsSpoken(3);
    const spokeAt = clock.now();
    // The answer's voice is queued after the reminder's, which was still playing (docs/calls.md, "Playback").
    const answerEnds = spokeAt + spoken + spoken - speakingMs('');
    clock.advance(answerEnds + 150 - clock.now());
    await turnsSpoken(4);
    expect(lastMessage()).toEqual({ role: 'user', content: REMINDER });
    clock.advance(answerEnds + 690 - clock.now());
    await new Promise((resolve) => setImmediate(resolve));
    expect(sink.ending()).toBeUndefined();
    clock.advance(20);
    await waitFor('the hang-up', async () => (sink.ending() ? true : undefined), 5000, 5);
    expect(sink.events.at(-1)).toEqual({ type: 'end', reason: 'max_silence' });
    expect(clock.now() - spokeAt).toBeGreaterThanOrEqual(650);
    // The reminder in between did not restart the count.
    expect(llm.requests.length).toBeGreaterThanOrEqual(4);
  });
});

describe('a welcome greeting', () => {
  const greeter = agent({ welcomeGreeting: ' Hi {{firstname}}, this is Ava from Acme. ' });

  it('is the first turn, placeholders filled, without asking the model; the model sees it in the history', async () => {
    const { engine, sink, transcript } = engineOn(llm, { agent: greeter });
    await engine.start();
    expect(llm.requests).toHaveLength(0);
    expect(sink.turns()).toEqual(['Hi Ada, this is Ava from Acme.']);
    expect(transcript()).toEqual([{ role: 'agent', text: 'Hi Ada, this is Ava from Acme.', at: expect.any(Date) }]);
    llm.reply({ text: 'About your Gold renewal.' });
    await engine.userSaid('Who?', true);
    expect(llm.requests[0].messages.slice(1)).toEqual([
      { role: 'user', content: CALL_ANSWERED_NOTE },
      { role: 'assistant', content: 'Hi Ada, this is Ava from Acme.' },
      { role: 'user', content: 'Who?' },
    ]);
  });

  it('is only stored when the transport said it (Twilio), and cut like any turn when interrupted', async () => {
    const { engine, sink, transcript } = engineOn(llm, { agent: greeter });
    sink.welcomeGreetingSpoken = true;
    await engine.start();
    expect(sink.events).toEqual([]);
    engine.interrupted('Hi Ada,');
    expect(transcript().map((t) => t.text)).toEqual(['Hi Ada,']);
  });

  it('comes after the opening disclosure, and not at all when the callee talks first', async () => {
    const disclosed = engineOn(llm, { agent: agent({ ...greeter, openingDisclosure: 'This call is recorded.' }) });
    await disclosed.engine.start();
    expect(disclosed.sink.events).toEqual([
      { type: 'say', text: 'This call is recorded.' },
      { type: 'text', token: 'Hi Ada, this is Ava from Acme.', last: true },
    ]);
    const waiting = engineOn(llm, { agent: agent({ ...greeter, whoTalksFirst: 'user' }) });
    await waiting.engine.start();
    expect(waiting.sink.events).toEqual([]);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('an agent with states', () => {
  const states = agent({
    startingState: 'greet',
    agentFlow: {
      states: [
        { name: 'greet', prompt: 'Greet {{firstname}} warmly.', next: ['offer'] },
        { name: 'offer', prompt: 'Offer the {{plan}} plan.', next: [] },
      ],
    },
  });

  it('adds the current state to the system prompt and moves along next with go_to_state', async () => {
    llm.reply(
      { text: 'Hello Ada!', toolCalls: [{ name: 'go_to_state', arguments: { state: 'nowhere' } }] },
      { toolCalls: [{ name: 'go_to_state', arguments: { state: 'offer' } }] },
      { text: 'May I offer you Gold?' },
    );
    const { engine, sink } = engineOn(llm, { agent: states });
    await engine.start();
    const [first, second, third] = llm.requests;
    expect(first.messages[0].content).toContain('Current state: greet.\nGreet Ada warmly.');
    expect(first.tools.find((t: any) => t.function.name === 'go_to_state').function.parameters.properties.state.enum).toEqual(['offer']);
    expect(second.messages.at(-1).content).toBe('Error: you cannot go to nowhere from here. Allowed: offer.');
    expect(third.messages[0].content).toContain('Current state: offer.\nOffer the Gold plan.');
    // The last state goes nowhere: no go_to_state any more.
    expect(third.tools.map((t: any) => t.function.name)).toEqual(['end_call', 'press_digits', 'do_not_call']);
    expect(sink.turns()).toEqual(['Hello Ada!May I offer you Gold?']);
  });
});
