import { CALL_ANSWERED_NOTE } from '../../../src/services/conversation/chat-history';
import { RESUMED_LINE, RESUMED_NOTE, resumptionOf, storedTurnsOf, TRANSFER_FAILED_LINE, TRANSFER_FAILED_NOTE } from '../../../src/services/conversation/resumption';
import { FakeLlm } from '../../support/fake-llm';
import { agent, engineOn } from '../../api/conversation/support';

let llm: FakeLlm;
beforeAll(async () => {
  llm = await FakeLlm.start();
});
afterAll(() => llm.close());
beforeEach(() => {
  llm.requests.length = 0;
});

const STORED = [
  { role: 'agent' as const, text: 'Hello Ada, this is Ava.', at: '2026-11-27T10:00:00.000Z', latency_ms: 420 },
  { role: 'user' as const, text: 'Hi. Can you move my appointment?', at: '2026-11-27T10:00:03.000Z' },
];

describe('a conversation taken up in a new session', () => {
  it('says its line first (no disclosure, no greeting), then asks the model with the stored turns and the note; its transcript holds only its own turns', async () => {
    llm.reply({ text: 'Of course, to which day?' });
    const { engine, sink, transcript, turnsSpoken } = engineOn(llm, {
      agent: agent({ openingDisclosure: 'This call is recorded.' }),
      resumption: resumptionOf('resumed', STORED),
    });
    await engine.start();
    expect(await turnsSpoken(2)).toEqual([RESUMED_LINE, 'Of course, to which day?']);
    expect(sink.events.some((e) => e.type === 'say')).toBe(false);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0].messages.slice(1)).toEqual([
      { role: 'user', content: CALL_ANSWERED_NOTE },
      { role: 'assistant', content: 'Hello Ada, this is Ava.' },
      { role: 'user', content: 'Hi. Can you move my appointment?' },
      { role: 'assistant', content: RESUMED_LINE },
      { role: 'user', content: RESUMED_NOTE },
    ]);
    expect(transcript().map((t) => [t.role, t.text])).toEqual([
      ['agent', RESUMED_LINE],
      ['agent', 'Of course, to which day?'],
    ]);
    llm.reply({ text: 'Done.' });
    await engine.userSaid('Friday, please.', true);
    expect(llm.requests[1].messages.slice(-2)).toEqual([
      { role: 'assistant', content: `${RESUMED_LINE} Of course, to which day?` },
      { role: 'user', content: 'Friday, please.' },
    ]);
    await engine.close('user_hangup');
  });

  it('tells the caller a transfer failed when back after one', async () => {
    llm.reply({ text: 'Can I take a message?' });
    const { engine, turnsSpoken } = engineOn(llm, { resumption: resumptionOf('transfer_failed', STORED) });
    await engine.start();
    expect(await turnsSpoken(2)).toEqual([TRANSFER_FAILED_LINE, 'Can I take a message?']);
    expect(llm.requests[0].messages.at(-1)).toEqual({ role: 'user', content: TRANSFER_FAILED_NOTE });
    await engine.close('user_hangup');
  });

  it('reads the stored turns as they are stored, skipping what is not a turn', () => {
    expect(storedTurnsOf({ turns: [STORED[0], null, { role: 'robot', text: 'x' }, { role: 'user' }, 'text', STORED[1]] })).toEqual(STORED);
    expect(storedTurnsOf(null)).toEqual([]);
    expect(storedTurnsOf({ turns: 'none' })).toEqual([]);
    expect(resumptionOf('new', STORED)).toBeUndefined();
  });
});
