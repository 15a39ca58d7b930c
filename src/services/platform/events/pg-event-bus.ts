import pg from 'pg';
import { type BusErrorHandler, type EventBus, type Handler, LocalFanout } from './event-bus';
import type { Topic, Topics } from './topics';

/** NOTIFY channel of every event; PostgreSQL scopes it to the database, so to one deployment. */
export const PG_CHANNEL = 'switchboard_events';
const RECONNECT_MS = 1000;
/** Most messages one NOTIFY statement carries. */
const BATCH = 500;

/** Messages waiting for the statement that sends them, and what each publisher awaits. */
interface Batch {
  messages: string[];
  topics: Set<Topic>;
  sent: Promise<void>;
  resolve: () => void;
}

/**
 * Event bus on PostgreSQL LISTEN/NOTIFY: every replica on the same database hears every
 * event, the publisher included (its own subscribers at once: LocalFanout). One dedicated
 * connection per replica listens; when it drops, it is opened again (events sent meanwhile
 * are missed, which subscribers tolerate by design). Publishing goes through the service's side pool (src/db/side-pool.ts), so that
 * NOTIFYs never queue on the listening connection. One NOTIFY statement is in flight at a time:
 * the events published meanwhile go together in the next one, in their order (one round trip
 * and one commit for many events under load, none added when idle).
 */
export class PgEventBus implements EventBus {
  private readonly fanout: LocalFanout;
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  /** The statement in flight, if any; `next` collects what is published meanwhile. */
  private sending: Promise<void> | null = null;
  private next: Batch | null = null;

  private constructor(
    private readonly url: string,
    private readonly publisher: pg.Pool,
    private readonly onError: BusErrorHandler,
  ) {
    this.fanout = new LocalFanout(onError);
  }

  /**
   * Connects and starts listening; rejects when the first connection fails. Publishes go
   * through `publisher`, which the caller closes after the bus.
   */
  static async start(url: string, publisher: pg.Pool, onError: BusErrorHandler): Promise<PgEventBus> {
    const bus = new PgEventBus(url, publisher, onError);
    await bus.connect();
    return bus;
  }

  subscribe<T extends Topic>(topic: T, handler: Handler<T>): () => void {
    return this.fanout.subscribe(topic, handler);
  }

  publish<T extends Topic>(topic: T, payload: Topics[T]): Promise<void> {
    const batch = this.next ?? this.newBatch();
    batch.messages.push(this.fanout.publish(topic, payload));
    batch.topics.add(topic);
    if (!this.sending || batch.messages.length >= BATCH) this.send();
    return batch.sent;
  }

  private newBatch(): Batch {
    let resolve!: () => void;
    const sent = new Promise<void>((r) => {
      resolve = r;
    });
    this.next = { messages: [], topics: new Set(), sent, resolve };
    return this.next;
  }

  /** Sends the collected messages in one statement, then whatever was published meanwhile. */
  private send(): void {
    const batch = this.next;
    if (!batch) return;
    this.next = null;
    const previous = this.sending ?? Promise.resolve();
    const sending = previous
      .then(() => this.publisher.query('SELECT pg_notify($1, m) FROM unnest($2::text[]) AS m', [PG_CHANNEL, batch.messages]))
      .then(
        () => undefined,
        (err: unknown) => this.onError(err, `publish ${[...batch.topics].join(', ')} (${batch.messages.length} events)`),
      )
      .then(() => {
        batch.resolve();
        if (this.sending === sending) this.sending = null;
        this.send();
      });
    this.sending = sending;
  }

  async close(): Promise<void> {
    while (this.sending) await this.sending;
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client ?? (await this.connecting?.catch(() => null));
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** The listening connection: the open one, the one being opened, or a new one. */
  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    if (this.closed) throw new Error('event bus closed');
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      if (msg.channel === PG_CHANNEL && msg.payload) this.fanout.deliver(msg.payload);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    await client.connect();
    await client.query(`LISTEN ${PG_CHANNEL}`);
    this.client = client;
    return client;
  }

  private lost(client: pg.Client, err: unknown): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.onError(err, 'event bus connection lost');
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch((err: unknown) => {
        this.onError(err, 'event bus reconnect failed');
        this.scheduleReconnect();
      });
    }, RECONNECT_MS);
  }
}
