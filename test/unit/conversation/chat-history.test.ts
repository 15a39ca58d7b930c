import { CALL_ANSWERED_NOTE, chatHistory } from '../../../src/services/conversation/chat-history';
import { REMINDER } from '../../../src/services/conversation/engine';
import { FakeLlm } from '../../support/fake-llm';
import { waitFor } from '../../support/wait';
import { agent, engineOn } from '../../api/conversation/support';

let llm: FakeLlm;
beforeAll(async () => {
  llm = await FakeLlm.start();
  llm.strictTemplate = true;
});
afterAll(() => llm.close());
beforeEach(() => {
  llm.requests.length = 0;
  llm.fallback = {};
});

const roles = (messages: { role: string }[]) => messages.map((m) => m.role);

describe('the history sent to a model whose chat template is strict', () => {
  it('opens an agent-first call with a user-side note, and the next request alternates from it', async () => {
    llm.reply({ text: 'Hi Ada, this is Ava.' }, { text: 'Great, thanks.' });
    const { engine, sink } = engineOn(llm);
    await engine.start();
    await engine.userSaid('Hello, fine thanks', true);
    expect(sink.ending()).toBeUndefined();
    expect(sink.turns()).toEqual(['Hi Ada, this is Ava.', 'Great, thanks.']);
    expect(llm.requests[0].messages.slice(1)).toEqual([{ role: 'user', content: CALL_ANSWERED_NOTE }]);
    expect(roles(llm.requests[1].messages)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('reminds a silent callee with a user-side note, not a system message', async () => {
    llm.fallback = { text: 'Are you still there?' };
    const { engine, sink } = engineOn(llm, { silence: { reminderMs: { from: 100, to: 100 }, maxMs: 0 } });
    await engine.start();
    await waitFor('two reminders', async () => (llm.requests.length >= 3 ? true : undefined), 5000, 10);
    await engine.close('user_hangup');
    expect(sink.ending()).toBeUndefined();
    const reminded = llm.requests[1].messages;
    expect(roles(reminded)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(reminded.at(-1)).toEqual({ role: 'user', content: REMINDER });
    // The reminder is not kept: the next one follows the agent's two turns, merged.
    expect(llm.requests[2].messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Are you still there? Are you still there?' },
      { role: 'user', content: REMINDER },
    ]);
  });

  it('merges two caller turns when the answer to the first was canceled before a word', async () => {
    const { engine, sink } = engineOn(llm, { agent: agent({ whoTalksFirst: 'user' }) });
    await engine.start();
    llm.reply({ text: 'Too late.', firstTokenDelayMs: 300 }, { text: 'Hello Ada.' });
    const first = engine.userSaid('Hi', true);
    await waitFor('the first request', async () => (llm.requests.length === 1 ? true : undefined));
    await engine.userSaid('Is anyone there?', true);
    await first;
    expect(sink.ending()).toBeUndefined();
    expect(llm.requests[1].messages.slice(1)).toEqual([{ role: 'user', content: 'Hi\nIs anyone there?' }]);
  });
});

describe('chatHistory', () => {
  it('drops empty assistant messages and other system messages, and reduces a tool round left unanswered to its text', () => {
    const call = { id: 'c1', name: 'press_digits', arguments: '{"digits":"1"}' };
    expect(
      chatHistory('S', [
        { role: 'assistant', content: 'Hello.' },
        { role: 'assistant', content: '' },
        { role: 'system', content: 'stray' },
        { role: 'user', content: 'Menu' },
        { role: 'assistant', content: 'Pressing one.', toolCalls: [call] },
        { role: 'tool', toolCallId: 'c1', content: 'Pressed 1.' },
        { role: 'user', content: 'Thanks' },
        { role: 'assistant', content: '', toolCalls: [call] },
        { role: 'tool', toolCallId: 'c1', content: 'Pressed 1.' },
        { role: 'assistant', content: 'Done.' },
      ]),
    ).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: CALL_ANSWERED_NOTE },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'Menu' },
      { role: 'assistant', content: 'Pressing one.' },
      { role: 'user', content: 'Thanks' },
      { role: 'assistant', content: '', toolCalls: [call] },
      { role: 'tool', toolCallId: 'c1', content: 'Pressed 1.' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });
});
