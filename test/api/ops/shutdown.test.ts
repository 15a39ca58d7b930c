import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../support/net';
import { killReplicas, listening, type Replica, signalGroup, spawnService } from '../../support/replicas';

// The real process (dist/src/main.js) on its embedded PostgreSQL, as `npm start` runs it on a
// fresh machine, stopped the two usual ways: a clean stop logs nothing at error level (pino
// level 50 or more) and exits 0 (docs/operations.md, "Stopping"). Both starts use one data
// folder, as a user's second `npm start` does: the first makes the cluster, the second
// starts it again (and finds it stopped cleanly by the first).

let dir: string;
const started: Replica[] = [];

beforeAll(async () => {
  await mkdir(path.resolve('.data'), { recursive: true });
  dir = await mkdtemp(path.resolve('.data/shutdown-'));
  await chmod(dir, 0o755); // PostgreSQL runs as the postgres user when we are root
});
afterAll(async () => {
  await killReplicas(started);
  await rm(dir, { recursive: true, force: true });
}, 30_000);

/** Every JSON line the process wrote, on stdout and stderr. */
const linesOf = (r: Replica): { level: number; msg: string }[] =>
  `${r.output.stdout}\n${r.output.stderr}`
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

/** Starts the service on the file's embedded PostgreSQL, in a process group of its own, with jobs being worked. */
async function startEmbedded(name: string): Promise<Replica> {
  const service = await spawnService(name, { EMBEDDED_PG_DIR: path.join(dir, 'postgres'), EMBEDDED_PG_PORT: String(await freePort()), SEED_DEMO: '1', JOB_POLL_MS: '50' }, { ownProcessGroup: true });
  started.push(service);
  await listening(service);
  return service;
}

describe('stopping the service on its embedded PostgreSQL', () => {
  it.each([
    ['SIGTERM', 'as an orchestrator does'],
    ['SIGINT', 'as Ctrl-C in a terminal does: the service and its PostgreSQL both get it'],
  ] as const)(
    'on %s (%s) exits 0 and logs no error',
    async (signal, _how) => {
      const service = await startEmbedded(signal.toLowerCase());
      signalGroup(service, signal);
      expect(await service.exited).toBe(0);
      const errors = linesOf(service).filter((line) => line.level >= 50);
      expect(errors).toEqual([]);
      expect(linesOf(service).map((line) => line.msg)).toContain('shutting down');
    },
    90_000,
  );
});
