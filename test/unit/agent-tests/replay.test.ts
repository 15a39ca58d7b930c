import { junitXml, xmlText } from '../../../src/cli/junit';
import { compareReplay, replayScript } from '../../../src/services/agent-tests/replay';
import { heardWithin } from '../../../src/services/agent-tests/simulated-test-call';
import { VirtualClock } from '../../../src/services/agent-tests/virtual-clock';
import { speakingMs } from '../../../src/services/conversation/playback';
import type { StoredTurn } from '../../../src/services/conversation/transcript';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const turn = (role: StoredTurn['role'], text: string, ms: number, extra: Partial<StoredTurn> = {}): StoredTurn => ({ role, text, at: new Date(T0 + ms).toISOString(), ...extra });

describe("a call's caller side as a replay script", () => {
  it('keeps utterances, keys (marked or only written), interruptions with their timing, and the silences kept after the agent spoke', () => {
    const greeting = 'Hello, this is Ava from Acme.';
    const turns = [
      turn('agent', greeting, 0),
      turn('user', 'Hi.', 1000),
      turn('agent', 'I am calling about', 1500, { interrupted: true }),
      turn('user', 'Not now, thanks.', 2700),
      turn('agent', 'Press 1 to call back.', 3000),
      turn('user', '[pressed 1]', 3000 + speakingMs('Press 1 to call back.') + 4000, { dtmf: '1' }),
      turn('agent', 'Done.', 9000),
      turn('user', '[pressed #]', 9100),
    ];
    expect(replayScript(turns)).toEqual([{ say: 'Hi.' }, { say: 'Not now, thanks.', interruptAfterMs: 1200 }, { silenceMs: 4000 }, { dtmf: '1' }, { dtmf: '#' }]);
  });

  it('compares both transcripts turn by turn, words aside from case and punctuation, and names the first that differs', () => {
    const original = [turn('agent', 'Hello!', 0), turn('user', 'Hi', 1), turn('agent', 'Bye.', 2)];
    const replayed = [turn('agent', 'hello', 0), turn('user', 'Hi', 1), turn('agent', 'See you.', 2), turn('user', 'Ok', 3)];
    const compared = compareReplay('c1', original, replayed);
    expect(compared.divergedAt).toBe(2);
    expect(compared.turns.map((t) => t.same)).toEqual([true, true, false, false]);
    expect(compared.turns[3]).toEqual({ original: null, replayed: { role: 'user', text: 'Ok' }, same: false });
    expect(compareReplay('c1', original, original).divergedAt).toBeNull();
  });
});

describe('what a caller hears before speaking over the agent', () => {
  it("is the words said within that time at the agent's voice speed, cut at a word", () => {
    const text = 'I am calling about your renewal next month.';
    expect(heardWithin(text, 400, 50)).toBe('');
    expect(heardWithin(text, 1500, 50)).toBe('I am calling');
    expect(heardWithin(text, 60_000, 50)).toBe(text);
    expect(heardWithin(text, 1500, 100).length).toBeGreaterThan(heardWithin(text, 1500, 0).length);
  });
});

describe('the clock of a simulated test call', () => {
  it('fires the timers a silence reaches, in order, waiting on the conversation between them, and lets the rest of the silence pass', async () => {
    const clock = new VirtualClock();
    const fired: string[] = [];
    const start = clock.now();
    clock.setTimeout(() => fired.push('late'), 5000);
    clock.setTimeout(() => fired.push('early'), 1000);
    const cleared = clock.setTimeout(() => fired.push('cleared'), 500);
    clock.clearTimeout(cleared);
    await clock.advance(
      3000,
      async () => void fired.push('settled'),
      () => false,
    );
    expect(fired).toEqual(['early', 'settled']);
    expect(clock.now() - start).toBeGreaterThanOrEqual(3000);
    await clock.advance(
      3000,
      async () => undefined,
      () => false,
    );
    expect(fired).toEqual(['early', 'settled', 'late']);
  });
});

describe('the JUnit report', () => {
  it('escapes markup and drops what XML cannot hold', () => {
    expect(xmlText(`a<b>&"c"'\u0000\u0007d\u{1F600}`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d\u{1F600}');
    const xml = junitXml('agent x', new Date('2026-11-27T10:00:00.123Z'), [
      { name: 'ok', seconds: 1.5, failures: [], error: null, output: 'Agent: Hi' },
      { name: 'bad', seconds: 0.5, failures: ['judge: no'], error: null, output: '' },
      { name: 'broken', seconds: 0, failures: [], error: 'model down', output: '' },
    ]);
    expect(xml).toContain('<testsuite name="agent x" tests="3" failures="1" errors="1" time="2.000" timestamp="2026-11-27T10:00:00">');
    expect(xml).toContain('<failure message="judge: no" type="criteria">judge: no</failure>');
    expect(xml).toContain('<error message="model down" type="error"/>');
  });
});
