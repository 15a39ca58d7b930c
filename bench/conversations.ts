/**
 * Conversation benchmark: SESSIONS concurrent Twilio ConversationRelay sessions of TURNS turns
 * each, every caller speaking again 2-4 s after the agent's answer (as a person does; the
 * sessions start spread over the first PAUSE_MAX_MS), against an OpenAI-compatible fake whose
 * first token comes after FIRST_TOKEN_MS (0 by default: a zero-latency streaming model). The
 * service runs in this process (Twilio provider, real relay websocket, real engine, transcripts
 * stored per turn); the outside world runs in a child process: the fake Calls API, the fake
 * model and the relay clients (test/support/fake-relay.ts, signed handshakes), so they share
 * neither the service's event loop nor its CPU count. Half the sessions send Twilio's `info`
 * events as the TwiML asks for them (the callee's voice on and off before each prompt; the
 * agent's voice on, the text played and the voice off after each answer), half send none, at
 * once, so both kinds meet the same load. Reports, per turn:
 * - the service's ADDED latency, with and without `info` events, and of the turns asked while
 *   sessions were still connecting (their handshakes and openings come in a burst): the relay
 *   client's receipt of the turn's first text token minus the fake model's sending of its first
 *   token (one clock: both in the child), the model's first token being the anchor;
 * - the service's CPU time (user + system of this process from the first session to the last
 *   turn's answer) per turn;
 * - the service's event-loop delay (perf_hooks `monitorEventLoopDelay`, its maximum and p99) over
 *   the same span;
 * - memory per live session: what this process holds (V8's heap in use plus the memory outside
 *   it, socket and other buffers) with every session live (each has had all its turns, none has
 *   closed: the callers hang up once it is measured) minus before the first connected, after a
 *   full garbage collection each (`--expose-gc`, as the npm script runs it), over SESSIONS; the
 *   RSS's growth beside it (which also counts the heap V8 reserved ahead and the allocator kept).
 *   The collection is the benchmark's own: it comes after the turns, outside the latency, CPU
 *   and loop-delay measures, which it would otherwise stall;
 * - dropped sessions (any that did not finish its turns), and whether every turn was stored.
 * Each figure is printed beside its aim (issue 31).
 *
 *   npm run bench:conversations            # 500 sessions x 10 turns, embedded PostgreSQL
 *   DATABASE_URL=postgres://... BENCH_SESSIONS=50 BENCH_TURNS=5 npm run bench:conversations
 *   BENCH_FIRST_TOKEN_MS=100               # a model taking 100 ms to its first token
 *   BENCH_CPU_PROF=1                       # a CPU profile of the service over the sessions, summarised
 */
import 'reflect-metadata';
import { type ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startApp } from '../src/app';
import { createLogger } from '../src/logger';
import { mintRelayToken } from '../src/services/telephony/relay-token';
import { FakeRelay } from '../test/support/fake-relay';
import { benchDatabase, inProcessConfig } from './database';
import { freePort } from '../test/support/net';
import { SERVICE_NODE_FLAGS } from '../src/project';
import { profilePhase } from './profiler';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 500);
const TURNS = Number(process.env.BENCH_TURNS ?? 10);
const FIRST_TOKEN_MS = Number(process.env.BENCH_FIRST_TOKEN_MS ?? 0);
/** A caller speaks again this long after the agent's answer ended: 2 to 4 s. */
const PAUSE_MIN_MS = 2000;
const PAUSE_MAX_MS = 4000;
const AIM = { addedP99Ms: 10, loopDelayMaxMs: 50, sessionKiB: 256 };
/**
 * The service runs in this process with the Node flags it is deployed with (the npm script
 * passes SERVICE_NODE_FLAGS); the child processes, the callers' side and the idle anchor, run
 * with Node's defaults.
 */
const OUTSIDE_EXEC_ARGV = process.execArgv.filter((arg) => !SERVICE_NODE_FLAGS.includes(arg));
const PROFILE_DIR = path.resolve(__dirname, '../../.data/bench-profiles');
const ACCOUNT = 'AC00000000000000000000000000000b3c';
const TOKEN = 'bench-twilio-auth-token';

const now = () => performance.timeOrigin + performance.now();
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

type Command = { type: 'run'; appUrl: string; publicBaseUrl: string; calls: { id: string; sid: string }[] } | { type: 'hang up' };
/** The child's message once every session has had all its turns (or failed): the live ones wait for `hang up`. */
type Live = { type: 'live' };
interface RunResult {
  /**
   * Added latency of each turn, of the sessions that send `info` events and of those that do
   * not; `opening`, of the turns (of both) whose prompt went while sessions were still connecting.
   */
  added: { events: number[]; none: number[]; opening: number[] };
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
    if (FIRST_TOKEN_MS > 0) await new Promise((resolve) => setTimeout(resolve, FIRST_TOKEN_MS));
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
 * Once its turns are over (`done`) the caller stays on the line until `hangUp` settles.
 */
async function session(
  command: Extract<Command, { type: 'run' }>,
  call: { id: string; sid: string },
  index: number,
  firstTokenAt: Map<string, number>,
  added: RunResult['added'],
  connecting: { sessions: number },
  done: () => void,
  hangUp: Promise<void>,
): Promise<void> {
  const events = index % 2 === 0;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    // Calls do not all start at one instant: spread over the longest pause.
    await pause(Math.random() * PAUSE_MAX_MS);
    // The session URL Twilio would open: this bench's fake Calls API does not keep the TwiML, so the token is minted as the service mints it.
    const relay = await FakeRelay.connect({ url: command.appUrl, publicBaseUrl: command.publicBaseUrl, authToken: TOKEN }, TOKEN, mintRelayToken(TOKEN, call.id, new Date()));
    relay.setup(call.id, call.sid);
    connecting.sessions--;
    for (let turn = 0; turn < TURNS; turn++) {
      await pause(PAUSE_MIN_MS + Math.random() * (PAUSE_MAX_MS - PAUSE_MIN_MS));
      const said = `Session ${index} turn ${turn}: I would like to know more.`;
      if (events) {
        relay.speaking('client', true);
        relay.speaking('client', false);
      }
      const opening = connecting.sessions > 0;
      relay.prompt(said);
      const answer = await relay.turn(30_000);
      const sent = firstTokenAt.get(said);
      if (answer.firstAt === null || sent === undefined) throw new Error(`turn ${turn}: no answer (${JSON.stringify(answer.others)})`);
      (events ? added.events : added.none).push(answer.firstAt - sent);
      if (opening) added.opening.push(answer.firstAt - sent);
      if (events) {
        relay.speaking('agent', true);
        relay.played(answer.text);
        relay.speaking('agent', false);
      }
    }
    done();
    await hangUp;
    relay.close();
  } catch (err) {
    // A failed session counts as done, so that the others' memory is still measured.
    done();
    throw err;
  }
}

async function outsideProcess(): Promise<void> {
  const firstTokenAt = new Map<string, number>();
  const llmUrl = await listen((req, res) => void fakeModel(firstTokenAt)(req, res));
  const twilioUrl = await listen(fakeCallsApi());
  process.send!({ llmUrl, twilioUrl });
  // The parent failed (its database, say): nothing left to measure.
  process.on('disconnect', () => process.exit(1));
  let hangUp!: () => void;
  const hangingUp = new Promise<void>((resolve) => (hangUp = resolve));
  process.on('message', (command: Command) => {
    if (command.type === 'hang up') {
      hangUp();
      return;
    }
    const added: RunResult['added'] = { events: [], none: [], opening: [] };
    const connecting = { sessions: command.calls.length };
    const errors: string[] = [];
    let done = 0;
    const sessionDone = () => {
      if (++done === command.calls.length) process.send!({ type: 'live' } satisfies Live);
    };
    void Promise.allSettled(command.calls.map((call, i) => session(command, call, i, firstTokenAt, added, connecting, sessionDone, hangingUp))).then((settled) => {
      for (const s of settled) if (s.status === 'rejected') errors.push(String(s.reason));
      const result: RunResult = { added, dropped: errors.length, errors: errors.slice(0, 5) };
      process.send!(result, () => process.exit(0));
    });
  });
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const child: ChildProcess = fork(__filename, ['outside'], { execArgv: OUTSIDE_EXEC_ARGV });
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
    // The service's own default: the conversations use no job, and the engines' benchmarks' 50 ms polling would be counted in the CPU per turn.
    JOB_POLL_MS: '1000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  });
  const app = await startApp(config, createLogger(config.logLevel));
  try {
    const em = app.orm.em.fork();
    const { companyId } = await app.services.auth.createCompany(em, { name: 'Conversation benchmark' });
    const caller = { scope: { companyId, userId: null }, em };
    const agent = await app.services.agents.create(caller, { name: 'Bench agent', prompt: 'You take notes. Answer in one short sentence.', whoTalksFirst: 'user' });
    await app.services.phoneNumbers.create(caller, { phoneNumber: '+14155552671' });
    for (let i = 0; i < SESSIONS; i++) {
      await app.services.calls.makeCall(caller, { aiAgentId: agent.id, callFrom: '+14155552671', callTo: '+14155550123', workspace: 'bench' });
    }
    const calls = await placed(app.orm.em.fork(), companyId);
    for (const call of calls) await app.services.lifecycle.applyUpdate({ id: call.id, companyId }, { status: 'in-progress', at: new Date() });

    const before = memory();
    const idle = fork(__filename, ['idle'], { execArgv: OUTSIDE_EXEC_ARGV });
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const cpu = process.cpuUsage();
    const started = Date.now();
    const next = <T>() => new Promise<T>((resolve) => child.once('message', resolve as never));
    // Until every session has had its turns (or failed).
    await profilePhase(
      PROFILE_DIR,
      'conversations',
      () => {
        loop.enable();
        const live = next<Live>();
        child.send({ type: 'run', appUrl: app.url, publicBaseUrl, calls } satisfies Command);
        return live;
      },
      (line) => console.error(line),
    );
    loop.disable();
    const wallMs = Date.now() - started;
    const used = process.cpuUsage(cpu);
    const idleDelay = await new Promise<LoopDelay>((resolve) => {
      idle.once('message', resolve as never);
      idle.send('stop');
    });
    const live = memory();
    const ended = next<RunResult>();
    child.send({ type: 'hang up' } satisfies Command);
    const result = await ended;
    const turns = result.added.events.length + result.added.none.length;
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const sortedAll = [...result.added.events, ...result.added.none].sort((a, b) => a - b);
    const latency = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `p50 ${ms(percentile(sorted, 50))}, p90 ${ms(percentile(sorted, 90))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)} (${sorted.length} turns)`;
    };
    const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');
    const addedP99 = percentile(sortedAll, 99);
    const loopMaxMs = loop.max / 1e6;
    const perSession = { held: (live.held - before.held) / SESSIONS / 1024, rss: (live.rss - before.rss) / SESSIONS / 1024 };
    const stored = await storedLatencies(app, companyId, turns);
    console.log(`sessions:             ${SESSIONS} concurrent, ${TURNS} turns each, the caller speaking 2-4 s after each answer; fake model's first token after ${FIRST_TOKEN_MS} ms`);
    console.log(`turns answered:       ${turns} of ${SESSIONS * TURNS} in ${(wallMs / 1000).toFixed(1)} s (${(turns / (wallMs / 1000)).toFixed(0)} turns/s)`);
    console.log(`dropped sessions:     ${result.dropped}${result.errors.length ? ` (${result.errors.join('; ')})` : ''}`);
    console.log(`added latency:        ${latency(sortedAll)} (over the model's first token, the anchor); aim p99 < ${AIM.addedP99Ms} ms: ${met(addedP99 < AIM.addedP99Ms)}`);
    console.log(`  with info events:   ${latency(result.added.events)}`);
    console.log(`  without:            ${latency(result.added.none)}`);
    console.log(`  while opening:      ${latency(result.added.opening)} (prompts sent before the last session connected)`);
    console.log(
      `event-loop delay:     max ${ms(loopMaxMs)}, p99 ${ms(loop.percentile(99) / 1e6)}, mean ${ms(loop.mean / 1e6)} over the sessions (an idle process beside it, the anchor: max ${ms(idleDelay.maxMs)}, p99 ${ms(idleDelay.p99Ms)}); aim max <= ${AIM.loopDelayMaxMs} ms: ${met(loopMaxMs <= AIM.loopDelayMaxMs)}`,
    );
    console.log(
      `service CPU per turn: ${((used.user + used.system) / 1000 / Math.max(1, turns)).toFixed(2)} ms (user ${(used.user / 1000 / Math.max(1, turns)).toFixed(2)}, system ${(used.system / 1000 / Math.max(1, turns)).toFixed(2)}; ${(((used.user + used.system) / 1000 / wallMs) * 100).toFixed(0)}% of one core over the run)`,
    );
    console.log(
      `memory per session:   ${perSession.held.toFixed(0)} KiB held (heap in use and buffers; RSS grew ${perSession.rss.toFixed(0)} KiB a session), ${SESSIONS - result.dropped} of ${SESSIONS} live after their turns, after a full GC${global.gc ? '' : ' (not run: start node with --expose-gc)'}; aim < ${AIM.sessionKiB} KiB: ${met(perSession.held < AIM.sessionKiB)}`,
    );
    console.log(
      `turns stored:         ${stored.length} agent turns with their latency_ms, for ${turns} answered: ${met(stored.length >= turns && result.dropped === 0)} (every session's every turn, none dropped)`,
    );
    console.log(`stored latency_ms:    p50 ${ms(percentile(stored, 50))}, p99 ${ms(percentile(stored, 99))} (the engine's prompt -> first token, the model's ${FIRST_TOKEN_MS} ms included)`);
  } finally {
    child.kill();
    await app.close();
    await db.drop();
  }
}

/** What this process holds (heap in use, and memory outside V8's heap: buffers) and its RSS, in bytes, after a full garbage collection when node exposes it. */
function memory(): { held: number; rss: number } {
  global.gc?.();
  const { heapUsed, external, rss } = process.memoryUsage();
  return { held: heapUsed + external, rss };
}

/**
 * Every agent turn's `latency_ms` as stored on the calls, sorted, once `expected` are stored
 * or 30 s have passed: the last turns' writes may still be on their way when their sessions end.
 */
async function storedLatencies(app: Awaited<ReturnType<typeof startApp>>, companyId: string, expected: number): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const rows: { ms: number }[] = await app.orm.em.fork().execute(
      `select (turn->>'latency_ms')::float as ms from calls, jsonb_array_elements(transcript_object->'turns') turn
       where company_id = ? and turn->>'latency_ms' is not null`,
      [companyId],
    );
    if (rows.length >= expected || Date.now() > deadline) return rows.map((r) => r.ms).sort((x, y) => x - y);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
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

/** Loop delay in ms: max and p99. */
interface LoopDelay {
  maxMs: number;
  p99Ms: number;
}

/**
 * The anchor of the event-loop delay: a process of its own doing nothing but measure its own
 * loop's delay over the run, so that what the machine's scheduler adds (other processes on
 * the same cores) shows beside the service's figure.
 */
function idleProcess(): void {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.once('message', () => process.send!({ maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6 } satisfies LoopDelay, () => process.exit(0)));
}

if (process.argv[2] === 'outside') {
  void outsideProcess();
} else if (process.argv[2] === 'idle') {
  idleProcess();
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
