/**
 * Conversation benchmark: SESSIONS concurrent Twilio ConversationRelay sessions of TURNS turns
 * each, against an OpenAI-compatible fake whose first token comes after a fixed 100 ms. The
 * service runs in this process (Twilio provider, real relay websocket, real engine, transcripts
 * stored per turn); the outside world runs in a child process: the fake Calls API, the fake
 * model and the relay clients (test/support/fake-relay.ts, signed handshakes), so they share
 * neither the service's event loop nor its CPU count. Half the sessions send Twilio's `info`
 * events as the TwiML asks for them (the callee's voice on and off before each prompt; the
 * agent's voice on, the text played and the voice off after each answer), half send none, at
 * once, so both kinds meet the same load. Reports, per turn:
 * - the service's ADDED latency, with and without `info` events: the relay client's receipt of
 *   the turn's first text token minus the fake model's sending of its first token (one clock:
 *   both in the child), the model's first token being the anchor;
 * - the service's CPU time (user + system of this process during the sessions) per turn;
 * - dropped sessions (any that did not finish its turns).
 *
 *   npm run bench:conversations            # 200 sessions x 10 turns, embedded PostgreSQL
 *   DATABASE_URL=postgres://... BENCH_SESSIONS=50 BENCH_TURNS=5 npm run bench:conversations
 */
import 'reflect-metadata';
import { type ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp } from '../src/app';
import { createLogger } from '../src/logger';
import { mintRelayToken } from '../src/services/telephony/relay-token';
import { FakeRelay } from '../test/support/fake-relay';
import { benchDatabase, freePort, inProcessConfig } from './database';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200);
const TURNS = Number(process.env.BENCH_TURNS ?? 10);
const FIRST_TOKEN_MS = 100;
const ACCOUNT = 'AC00000000000000000000000000000b3c';
const TOKEN = 'bench-twilio-auth-token';

const now = () => performance.timeOrigin + performance.now();
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

type Command = { type: 'run'; appUrl: string; publicBaseUrl: string; calls: { id: string; sid: string }[] };
interface RunResult {
  /** Added latency of each turn, of the sessions that send `info` events and of those that do not. */
  added: { events: number[]; none: number[] };
  dropped: number;
  errors: string[];
}

/** A Chat Completions stream: the role, then the answer word by word after FIRST_TOKEN_MS; notes when the first word left. */
function fakeModel(firstTokenAt: Map<string, number>) {
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    let raw = '';
    for await (const part of req) raw += String(part);
    const body = JSON.parse(raw) as { messages: { role: string; content: unknown }[]; model: string };
    const said = [...body.messages].reverse().find((m) => m.role === 'user')?.content;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: '' }));
    await new Promise((resolve) => setTimeout(resolve, FIRST_TOKEN_MS));
    if (typeof said === 'string') firstTokenAt.set(said, now());
    for (const word of ['Thank ', 'you, ', 'noted.']) res.write(chunk({ content: word }));
    res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
  };
}

/**
 * Twilio's REST API, as far as this bench needs it: the account holds every number it is asked
 * about (`IncomingPhoneNumbers.json?PhoneNumber=`), and every placed call gets a sid.
 */
function fakeCallsApi() {
  let n = 0;
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    req.resume();
    const url = new URL(req.url ?? '/', 'http://twilio');
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    req.on('end', () =>
      url.pathname.endsWith('/IncomingPhoneNumbers.json')
        ? json(200, { incoming_phone_numbers: [{ phone_number: url.searchParams.get('PhoneNumber') }] })
        : json(201, { sid: `CA${String(++n).padStart(32, '0')}`, status: 'queued' }),
    );
  };
}

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * One relay session: setup, then TURNS prompts, each waiting for the agent's whole answer; with
 * `events`, Twilio's `info` messages around each prompt and answer, as a call's would come.
 */
async function session(command: Command, call: { id: string; sid: string }, index: number, firstTokenAt: Map<string, number>, added: RunResult['added']): Promise<void> {
  const events = index % 2 === 0;
  // The session URL Twilio would open: this bench's fake Calls API does not keep the TwiML, so the token is minted as the service mints it.
  const relay = await FakeRelay.connect({ url: command.appUrl, publicBaseUrl: command.publicBaseUrl, authToken: TOKEN }, TOKEN, mintRelayToken(TOKEN, call.id, new Date()));
  relay.setup(call.id, call.sid);
  for (let turn = 0; turn < TURNS; turn++) {
    const said = `Session ${index} turn ${turn}: I would like to know more.`;
    if (events) {
      relay.speaking('client', true);
      relay.speaking('client', false);
    }
    relay.prompt(said);
    const answer = await relay.turn(30_000);
    const sent = firstTokenAt.get(said);
    if (answer.firstAt === null || sent === undefined) throw new Error(`turn ${turn}: no answer (${JSON.stringify(answer.others)})`);
    (events ? added.events : added.none).push(answer.firstAt - sent);
    if (events) {
      relay.speaking('agent', true);
      relay.played(answer.text);
      relay.speaking('agent', false);
    }
  }
  relay.close();
}

async function outsideProcess(): Promise<void> {
  const firstTokenAt = new Map<string, number>();
  const llmUrl = await listen((req, res) => void fakeModel(firstTokenAt)(req, res));
  const twilioUrl = await listen(fakeCallsApi());
  process.send!({ llmUrl, twilioUrl });
  // The parent failed (its database, say): nothing left to measure.
  process.on('disconnect', () => process.exit(1));
  process.on('message', (command: Command) => {
    const added: RunResult['added'] = { events: [], none: [] };
    const errors: string[] = [];
    void Promise.allSettled(command.calls.map((call, i) => session(command, call, i, firstTokenAt, added))).then((settled) => {
      for (const s of settled) if (s.status === 'rejected') errors.push(String(s.reason));
      const result: RunResult = { added, dropped: errors.length, errors: errors.slice(0, 5) };
      process.send!(result, () => process.exit(0));
    });
  });
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const child: ChildProcess = fork(__filename, ['outside']);
  const { llmUrl, twilioUrl } = await new Promise<{ llmUrl: string; twilioUrl: string }>((resolve) => child.once('message', resolve as never));
  child.once('exit', (code) => code && console.error(`outside process exited with ${code}`));
  const port = await freePort();
  const publicBaseUrl = `http://127.0.0.1:${port}`;
  const config = inProcessConfig(db.url, {
    PORT: String(port),
    PUBLIC_BASE_URL: publicBaseUrl,
    TELEPHONY_PROVIDER: 'twilio',
    TWILIO_API_BASE_URL: twilioUrl,
    TWILIO_ACCOUNT_SID: ACCOUNT,
    TWILIO_AUTH_TOKEN: TOKEN,
    LLM_BASE_URL: `${llmUrl}/v1`,
    LLM_API_KEY: 'bench',
    LLM_MODEL: 'bench-model',
    MAX_CONCURRENT_CALLS_PER_COMPANY: String(SESSIONS),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  });
  const app = await startApp(config, createLogger(config.logLevel));
  try {
    const em = app.orm.em.fork();
    const { companyId } = await app.services.auth.createCompany(em, { name: 'Conversation benchmark' });
    const caller = { scope: { companyId, userId: null }, em };
    const agent = await app.services.agents.create(caller, { name: 'Bench agent', prompt: 'You take notes. Answer in one short sentence.', who_talks_first: 'user' });
    await app.services.phoneNumbers.create(caller, { phone_number: '+14155552671' });
    for (let i = 0; i < SESSIONS; i++) {
      await app.services.calls.makeCall(caller, { ai_agent_id: agent.id, call_from: '+14155552671', call_to: '+14155550123', workspace: 'bench' });
    }
    const calls = await placed(app.orm.em.fork(), companyId);
    for (const call of calls) await app.services.lifecycle.applyUpdate({ id: call.id, companyId }, { status: 'in-progress', at: new Date() });

    const cpu = process.cpuUsage();
    const started = Date.now();
    const result = await new Promise<RunResult>((resolve) => {
      child.once('message', resolve as never);
      child.send({ type: 'run', appUrl: app.url, publicBaseUrl, calls } satisfies Command);
    });
    const wallMs = Date.now() - started;
    const used = process.cpuUsage(cpu);
    const turns = result.added.events.length + result.added.none.length;
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const latency = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `p50 ${ms(percentile(sorted, 50))}, p90 ${ms(percentile(sorted, 90))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)} (${sorted.length} turns)`;
    };
    console.log(`sessions:             ${SESSIONS} concurrent, ${TURNS} turns each; fake model's first token after ${FIRST_TOKEN_MS} ms`);
    console.log(`turns answered:       ${turns} of ${SESSIONS * TURNS} in ${(wallMs / 1000).toFixed(1)} s`);
    console.log(`dropped sessions:     ${result.dropped}${result.errors.length ? ` (${result.errors.join('; ')})` : ''}`);
    console.log(`added latency:        ${latency([...result.added.events, ...result.added.none])} (over the model's first token, the anchor)`);
    console.log(`  with info events:   ${latency(result.added.events)}`);
    console.log(`  without:            ${latency(result.added.none)}`);
    console.log(`service CPU per turn: ${((used.user + used.system) / 1000 / Math.max(1, turns)).toFixed(2)} ms (${((used.user + used.system) / 1000 / wallMs * 100).toFixed(0)}% of one core over the run)`);
    const stored = await storedLatencies(app.orm.em.fork(), companyId);
    console.log(`stored latency_ms:    p50 ${ms(percentile(stored, 50))}, p99 ${ms(percentile(stored, 99))} (the engine's prompt -> first token, model's 100 ms included; ${stored.length} turns)`);
  } finally {
    child.kill();
    await app.close();
    await db.drop();
  }
}

/** Every agent turn's `latency_ms` as stored on the calls, sorted. */
async function storedLatencies(em: ReturnType<Awaited<ReturnType<typeof startApp>>['orm']['em']['fork']>, companyId: string): Promise<number[]> {
  const rows: { ms: number }[] = await em.execute(
    `select (turn->>'latency_ms')::float as ms from calls, jsonb_array_elements(transcript_object->'turns') turn
     where company_id = ? and turn->>'latency_ms' is not null`,
    [companyId],
  );
  return rows.map((r) => r.ms).sort((x, y) => x - y);
}

/** The calls once Twilio (the fake) has given each its sid. */
async function placed(em: ReturnType<Awaited<ReturnType<typeof startApp>>['orm']['em']['fork']>, companyId: string): Promise<{ id: string; sid: string }[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const rows: { id: string; call_sid: string }[] = await em.execute(`select id, call_sid from calls where company_id = ? and call_sid <> ''`, [companyId]);
    if (rows.length >= SESSIONS) return rows.map((r) => ({ id: r.id, sid: r.call_sid }));
    if (Date.now() > deadline) throw new Error(`only ${rows.length} of ${SESSIONS} calls placed within 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

if (process.argv[2] === 'outside') {
  void outsideProcess();
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
