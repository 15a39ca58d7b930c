import pg from 'pg';
import { TERMINAL_STATUSES } from '../src/entities/call.entity';
import { PG_CHANNEL } from '../src/services/platform/events/pg-event-bus';

/** Waits until every call of the company has ended; answers how many there are and how long it took. */
export async function drain(sql: pg.Pool, companyId: string, timeoutMs: number): Promise<{ calls: number; seconds: number }> {
  const started = Date.now();
  for (;;) {
    const { rows } = await sql.query<{ calls: number; live: number }>(
      'select count(*)::int as calls, count(*) filter (where not (call_status = any($2)))::int as live from calls where company_id = $1',
      [companyId, TERMINAL_STATUSES],
    );
    if (rows[0].live === 0) return { calls: rows[0].calls, seconds: (Date.now() - started) / 1000 };
    if (Date.now() - started > timeoutMs) throw new Error(`${rows[0].live} calls still live after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until `count()` reaches `expected`, or stays the same for a second (at most 30 s). */
export async function quiet(count: () => number, expected: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last = -1;
  while (count() < expected && count() !== last && Date.now() < deadline) {
    last = count();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * Counts the `call.updated` events the service publishes (it listens on the event bus's
 * NOTIFY channel, as a replica would) until `stop()`, which answers the count once none has
 * arrived for half a second: the last transitions' notifications may still be on their way
 * when their rows are stored (the bus sends the events of a moment together).
 */
export async function countEvents(databaseUrl: string): Promise<{ stop(): Promise<number> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  let events = 0;
  let last = Date.now();
  client.on('notification', (msg) => {
    if (msg.channel === PG_CHANNEL && (JSON.parse(msg.payload ?? '{}') as { topic?: string }).topic === 'call.updated') events += 1;
    last = Date.now();
  });
  await client.connect();
  await client.query(`LISTEN ${PG_CHANNEL}`);
  return {
    async stop() {
      while (Date.now() - last < 500) await new Promise((resolve) => setTimeout(resolve, 100));
      await client.end();
      return events;
    },
  };
}
