import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { TEST_SECRETS_KEY } from './harness';
import { freePort } from './net';
import { waitFor } from './wait';

/** The service's real entry point, compiled by the global set-up. */
const MAIN = path.resolve('dist/src/main.js');

/** One replica: `node dist/src/main.js` as an OS process of its own, on a port of its own. */
export interface Replica {
  name: string;
  url: string;
  process: ChildProcess;
  /** Everything the process printed so far. */
  output: { stdout: string; stderr: string };
  /** Resolves once the process has exited, with its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/**
 * Connections per replica: 4 + 3 + 2 + LISTEN = 10 (25 by default). Suites of replicas run
 * side by side on a PostgreSQL of `max_connections` 100, as the machines come.
 */
const SMALL_POOLS = { DATABASE_POOL_MAX: '4', JOB_POOL_MAX: '3', DATABASE_SIDE_POOL_MAX: '2' };

/**
 * Starts a replica on `databaseUrl` with a minimal environment (nothing inherited from the
 * test run but PATH), small pools, the tests' SECRETS_KEY (as every test service has), plus `env`. Resolves when it is running; use
 * `listening()` to wait for its port.
 */
export function spawnReplica(name: string, databaseUrl: string, env: Record<string, string>): Promise<Replica> {
  return spawnService(name, { DATABASE_URL: databaseUrl, SECRETS_KEY: TEST_SECRETS_KEY, ...SMALL_POOLS, ...env });
}

/**
 * Starts `node dist/src/main.js` with PATH, HOST, a free PORT and `env` only (no
 * DATABASE_URL unless `env` names one: then it starts its embedded PostgreSQL). With
 * `ownProcessGroup`, the service and its children (the embedded PostgreSQL) form a process
 * group of their own, which `signalGroup` signals at once, as a terminal's Ctrl-C does.
 */
export async function spawnService(name: string, env: Record<string, string>, options: { ownProcessGroup?: boolean } = {}): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup ?? false,
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, url: `http://127.0.0.1:${port}`, process: child, output, exited };
}

/** Sends `signal` to every process of the replica's group (started with `ownProcessGroup`). */
export function signalGroup(replica: Replica, signal: NodeJS.Signals): void {
  process.kill(-replica.process.pid!, signal);
}

const running = (r: Replica) => r.process.exitCode === null && r.process.signalCode === null;

/**
 * Waits until the replica answers HTTP (an unauthenticated request: 401 once it serves);
 * fails at once, with what it printed, if it exits first.
 */
export async function listening(replica: Replica, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    () => `replica ${replica.name} to listen on ${replica.url}`,
    async () => {
      if (!running(replica)) throw new Error(`replica ${replica.name} exited (${replica.process.exitCode}): ${replica.output.stderr}`);
      try {
        const res = await fetch(`${replica.url}/v1/ai-agent`);
        return res.status === 401 ? true : undefined;
      } catch {
        return undefined;
      }
    },
    timeoutMs,
    50,
  );
}

/** Asks the replica to stop (SIGTERM, as an orchestrator does) and resolves with its exit code. */
export async function stopReplica(replica: Replica): Promise<number | null> {
  if (running(replica)) replica.process.kill('SIGTERM');
  return replica.exited;
}

/** Kills whatever is still running (after a failed test): no replica outlives the suite. */
export async function killReplicas(replicas: Replica[]): Promise<void> {
  for (const r of replicas) if (running(r)) r.process.kill('SIGKILL');
  await Promise.all(replicas.map((r) => r.exited));
}

/** A REST request to `replica` with `key`, expected to succeed (200, envelope `ok`); answers its `data`. */
export async function replicaData<T = any>(replica: Replica, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${replica.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { status: string; data: T };
  expect({ status: res.status, envelope: json.status }).toEqual({ status: 200, envelope: 'ok' });
  return json.data;
}

/** The demo company's API key, from the JSON banner a replica prints on first start. */
export function demoKey(stdout: string): string {
  const key = /"demo_api_key":"(sk_[^"]+)"/.exec(stdout)?.[1];
  if (!key) throw new Error(`no demo key in the output:\n${stdout}`);
  return key;
}
