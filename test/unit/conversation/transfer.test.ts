import { SUMMARY_MAX_CHARS, lastTurnsSummary } from '../../../src/services/conversation/transfer-summary';
import { transferStatusOf, transferTwiml, whisperTwiml } from '../../../src/services/telephony/transfer-twiml';
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

const DESK = '+14155550199';
const transferring = (mode: 'cold' | 'warm', holdAudioUrl: string | null = null) => agent({ transferMode: mode, holdAudioUrl, agentFlow: { transfer_numbers: [DESK] } });
const transferReply = { text: 'One moment.', toolCalls: [{ name: 'transfer_call', arguments: { number: DESK } }] };

describe('a transfer by the engine', () => {
  it("warm: plays the hold audio, then hands over with the model's summary of the spoken turns", async () => {
    llm.reply({ text: 'Hello.' }, transferReply, { text: '  Ada wants\na person.  ' });
    const { engine, sink } = engineOn(llm, { agent: transferring('warm', 'https://cdn.example.com/hold.mp3') });
    await engine.start();
    await engine.userSaid('A person, please.', true);
    expect(sink.events.filter((e) => e.type === 'play' || e.type === 'transfer')).toEqual([
      { type: 'play', url: 'https://cdn.example.com/hold.mp3' },
      { type: 'transfer', number: DESK, summary: 'Ada wants a person.' },
    ]);
    const asked = llm.requests[2];
    expect(asked.tools).toBeUndefined();
    expect(asked.messages[1]).toEqual({ role: 'user', content: 'Agent: Hello.\nCaller: A person, please.\nAgent: One moment.' });
    await engine.close('call_transfer');
  });

  it('warm without hold audio: no play; a failed summary falls back to the last turns', async () => {
    llm.reply({ text: 'Hello.' }, transferReply, { status: 400 });
    const { engine, sink } = engineOn(llm, { agent: transferring('warm') });
    await engine.start();
    await engine.userSaid('A person, please.', true);
    expect(sink.events.some((e) => e.type === 'play')).toBe(false);
    expect(sink.ending()).toEqual({ type: 'transfer', number: DESK, summary: 'The agent said: Hello. The caller said: A person, please. The agent said: One moment.' });
    await engine.close('call_transfer');
  });

  it('cold: hands over at once, without a summary', async () => {
    llm.reply({ text: 'Hello.' }, transferReply);
    const { engine, sink } = engineOn(llm, { agent: transferring('cold', 'https://cdn.example.com/hold.mp3') });
    await engine.start();
    await engine.userSaid('A person, please.', true);
    expect(sink.events.some((e) => e.type === 'play')).toBe(false);
    expect(sink.ending()).toEqual({ type: 'transfer', number: DESK, summary: null });
    expect(llm.requests).toHaveLength(2);
    await engine.close('call_transfer');
  });
});

describe('the transfer TwiML', () => {
  it('dials a warm transfer with its ring time and whisper, a cold one with its action only, escaping what it puts in attributes', () => {
    expect(transferTwiml('https://sb.example.com', 'a&b', DESK, 'warm')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Dial action="https://sb.example.com/v1/telephony/twilio/dial-ended?call_id=a%26b" timeout="30">' +
        `<Number url="https://sb.example.com/v1/telephony/twilio/whisper?call_id=a%26b">${DESK}</Number></Dial></Response>`,
    );
    expect(transferTwiml('https://sb.example.com', 'c', DESK, 'cold')).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Dial action="https://sb.example.com/v1/telephony/twilio/dial-ended?call_id=c">${DESK}</Dial></Response>`,
    );
    expect(whisperTwiml('Ada <wants> "a person" & more', 'fr-FR')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say language="fr-FR">Ada &lt;wants&gt; "a person" &amp; more</Say></Response>',
    );
  });

  it("reads DialCallStatus as the transfer's status", () => {
    expect(['completed', 'answered', 'busy', 'no-answer', 'failed', 'canceled', 'dialing', 'teleported', undefined].map(transferStatusOf)).toEqual([
      'completed',
      'completed',
      'busy',
      'no-answer',
      'failed',
      'canceled',
      'failed',
      'failed',
      'failed',
    ]);
  });

  it('keeps a fallback summary short, and says who is transferred when nothing was said', () => {
    expect(lastTurnsSummary([])).toBe('A caller is being transferred to you.');
    const long = lastTurnsSummary([{ role: 'user', text: 'x'.repeat(2000) }]);
    expect(long).toHaveLength(SUMMARY_MAX_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});
