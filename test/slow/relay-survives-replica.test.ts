import pg from 'pg';
import { CALL_ANSWERED_NOTE } from '../../src/services/conversation/chat-history';
import { RESUMED_LINE, RESUMED_NOTE } from '../../src/services/conversation/resumption';
import { FakeLlm } from '../support/fake-llm';
import { FakeRelay, parametersIn, RefusedHandshake, relayEnded, type RelayTarget, sessionTokenIn } from '../support/fake-relay';
import { fakeTwilio, TWILIO_SID as SID, TWILIO_TOKEN as TOKEN, TWILIO_PUBLIC as PUBLIC, twilioProviderEnv } from '../support/fake-twilio';
import { createTestDatabase } from '../support/harness';
import { demoKey, killReplicas, listening, type Replica, replicaData, spawnReplica } from '../support/replicas';
import { waitFor } from '../support/wait';

// A Twilio call's relay socket is held by one replica; that replica is killed (SIGKILL: no
// shutdown, its relay session left open in the database, its conversation gone from memory).
// Twilio posts the <Connect action> to another replica, which answers a new
// <Connect><ConversationRelay> of the same call; the conversation goes on from the stored
// turns (docs/calls.md, "A call that survives its replica").

let db: { url: string; drop(): Promise<void> };
let twilio: Awaited<ReturnType<typeof fakeTwilio>>;
let llm: FakeLlm;
const replicas: Replica[] = [];
let key: string;

beforeAll(async () => {
  db = await createTestDatabase();
  twilio = await fakeTwilio();
  llm = await FakeLlm.start();
}, 30_000);

afterAll(async () => {
  await killReplicas(replicas);
  await llm.close();
  await twilio.close();
  await db.drop();
}, 30_000);

async function startReplica(name: string): Promise<Replica> {
  const replica = await spawnReplica(name, db.url, {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SEED_DEMO: '1',
    JOB_POLL_MS: '50',
    ...twilioProviderEnv(twilio),
    LLM_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'fake-model',
  });
  replicas.push(replica);
  await listening(replica);
  return replica;
}

const api = <T = any>(replica: Replica, method: string, path: string, body?: unknown): Promise<T> => replicaData<T>(replica, key, method, path, body);

const relayOn = (replica: Replica): RelayTarget => ({ url: replica.url, publicBaseUrl: PUBLIC, authToken: TOKEN });
const turnsOf = async (on: Replica, id: string) => ((await api(on, 'GET', `/v1/calls/${id}`)).transcript_object?.turns ?? []).map((t: { role: string; text: string }) => [t.role, t.text]);

describe('a Twilio call whose replica is killed mid-conversation', () => {
  it('is resumed on another replica with its history', async () => {
    const a = await startReplica('a');
    key = demoKey(a.output.stdout);
    const b = await startReplica('b');
    const agents = await api<{ id: string; name: string }[]>(a, 'GET', '/v1/ai-agent');
    const agent = agents.find((x) => x.name === 'Demo appointment reminder')!;
    await api(a, 'POST', '/v1/phone-numbers', { phone_number: '+14155550100', label: 'Outbound' });
    const made = await api<{ id: string }>(a, 'POST', '/v1/calls/make-call', { ai_agent_id: agent.id, call_from: '+14155550100', call_to: '+14155552000' });
    const call = await waitFor('the call to reach Twilio', async () => {
      const c = await api<{ id: string; call_sid: string }>(a, 'GET', `/v1/calls/${made.id}`);
      return c.call_sid ? c : undefined;
    });
    expect((await twilio.status(a.url, call.id, 'in-progress')).status).toBe(200);
    const twiml = twilio.created(call.id).form.get('Twiml')!;

    llm.reply({ text: 'Hello, I am calling to confirm your appointment.' });
    const first = await FakeRelay.ofTwiml(relayOn(a), twiml, call.call_sid);
    expect((await first.turn()).text).toBe('Hello, I am calling to confirm your appointment.');
    llm.reply({ text: 'It is on Friday at ten.' });
    first.prompt('Which day was it again?');
    expect((await first.turn()).text).toBe('It is on Friday at ten.');
    await waitFor('three turns stored', async () => ((await turnsOf(b, call.id)).length === 3 ? true : undefined));

    a.process.kill('SIGKILL');
    expect(await a.exited).toBeNull();
    expect(await first.closed()).toBe(1006);
    // The killed replica never closed its session: the resume closes it, and the one-session rule holds.
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    const open = () => sql.query('select count(*)::int as n from relay_sessions where call_id = $1 and closed_at is null', [call.id]).then((r) => r.rows[0].n);
    expect(await open()).toBe(1);

    const ended = await relayEnded(relayOn(b), call.id, {
      AccountSid: SID,
      CallSid: call.call_sid,
      CallStatus: 'in-progress',
      SessionId: 'VX00000000000000000000000000000001',
      SessionStatus: 'failed',
    });
    expect(ended.status).toBe(200);
    expect(parametersIn(ended.text)).toEqual({ call_id: call.id, opening: 'resumed' });
    const replayed = await FakeRelay.connect(relayOn(b), TOKEN, sessionTokenIn(twiml)).then(
      () => 0,
      (err: unknown) => (err instanceof RefusedHandshake ? err.status : -1),
    );
    expect(replayed).toBe(403);

    const asked = llm.requests.length;
    llm.reply({ text: 'So, Friday at ten works for you?' });
    const second = await FakeRelay.ofTwiml(relayOn(b), ended.text, call.call_sid);
    expect((await second.turn()).text).toBe(RESUMED_LINE);
    expect((await second.turn()).text).toBe('So, Friday at ten works for you?');
    expect(llm.conversationRequests(asked)[0].messages.filter((m: { role: string }) => m.role !== 'system')).toEqual([
      { role: 'user', content: CALL_ANSWERED_NOTE },
      { role: 'assistant', content: 'Hello, I am calling to confirm your appointment.' },
      { role: 'user', content: 'Which day was it again?' },
      { role: 'assistant', content: `It is on Friday at ten. ${RESUMED_LINE}` },
      { role: 'user', content: RESUMED_NOTE },
    ]);
    await waitFor('the transcript of both sessions', async () => ((await turnsOf(b, call.id)).length === 5 ? true : undefined));
    expect(await turnsOf(b, call.id)).toEqual([
      ['agent', 'Hello, I am calling to confirm your appointment.'],
      ['user', 'Which day was it again?'],
      ['agent', 'It is on Friday at ten.'],
      ['agent', RESUMED_LINE],
      ['agent', 'So, Friday at ten works for you?'],
    ]);
    expect((await api(b, 'GET', `/v1/calls/${call.id}`)).resumes).toBe(1);
    expect(await open()).toBe(1);
    await sql.end();
    second.close();
  }, 90_000);
});
