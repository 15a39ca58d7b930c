import net from 'node:net';
import pg from 'pg';
import { createTestDatabase } from '../../support/harness';
import { killReplicas, listening, type Replica, spawnReplica, stopReplica } from '../../support/replicas';
import { waitFor } from '../../support/wait';

// The real process (dist/src/main.js), provoked the ways an outside review saw plain text
// escape: every line it writes, on stdout and stderr, must be JSON (docs/operations.md).

let db: { url: string; drop(): Promise<void> };
let replica: Replica;

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
}, 30_000);
afterAll(async () => {
  await killReplicas(replica ? [replica] : []);
  await db.drop();
}, 30_000);

/** Writes `raw` on a new connection and waits for the server to close it. */
function send(url: string, raw: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(raw));
    socket.resume();
    socket.on('close', () => resolve());
  });
}

const linesOf = (text: string) => text.split('\n').filter((line) => line !== '');

function notJson(text: string): string[] {
  return linesOf(text).filter((line) => {
    try {
      return typeof JSON.parse(line) !== 'object';
    } catch {
      return true;
    }
  });
}

describe('process output', () => {
  it('is JSON lines only: demo banner, malformed requests, lost database connections, shutdown', async () => {
    replica = await spawnReplica('output', db.url, { SEED_DEMO: '1', LOG_LEVEL: 'debug', JOB_POLL_MS: '50' });
    await listening(replica);
    const banner = linesOf(replica.output.stdout)
      .map((line) => JSON.parse(line))
      .find((line) => /^Demo company created/.test(line.msg));
    expect(banner.demo_api_key).toMatch(/^sk_/);
    expect(banner.console).toBe(`${replica.url}/console/`);

    // A chunked body that turns malformed once the request is under way (Node's "Parse Error").
    await send(replica.url, 'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"que\r\nzz\r\n');
    await send(replica.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);

    // PostgreSQL drops every connection of the service, then the service is used again.
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    const auth = { headers: { authorization: `Bearer ${banner.demo_api_key}` } };
    for (let i = 0; i < 5; i++) await fetch(`${replica.url}/v1/campaigns/list`, auth).catch(() => undefined);
    // Stopped once it has come back: the loss reported, requests answered, the event bus listening again.
    await waitFor('the service to recover from the lost connections', async () => {
      const answered = (await fetch(`${replica.url}/v1/campaigns/list`, auth).catch(() => undefined))?.status === 200;
      const { rows } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND state = 'idle'");
      return answered && rows.length > 0 && replica.output.stdout.includes('event bus connection lost') ? true : undefined;
    });
    await admin.end();

    expect(await stopReplica(replica)).toBe(0);
    expect(notJson(replica.output.stdout)).toEqual([]);
    expect(notJson(replica.output.stderr)).toEqual([]);
    expect(linesOf(replica.output.stdout).length).toBeGreaterThan(5);
  }, 90_000);

  it('says on a later start, when no key is shown, how to get one with the admin CLI', async () => {
    replica = await spawnReplica('later', db.url, { SEED_DEMO: '1' });
    await listening(replica);
    const lines = linesOf(replica.output.stdout).map((line) => JSON.parse(line));
    expect(lines.some((line) => /^Demo company created/.test(line.msg))).toBe(false);
    expect(lines.find((line) => /^No API key is shown on a later start/.test(line.msg))).toMatchObject({
      list_companies: 'npm run --silent admin -- list-companies',
      create_api_key: 'npm run --silent admin -- create-api-key --company <id>',
    });
    expect(await stopReplica(replica)).toBe(0);
  }, 90_000);
});
