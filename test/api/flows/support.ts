import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { okData } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { waitFor as waitUntil } from '../../support/wait';

/** What the flow tests run with: receivers on 127.0.0.1 allowed, fast polling and backoff. */
export const FLOW_ENV = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', JOB_POLL_MS: '50', WEBHOOK_RETRY_BACKOFF_MS: '20' };

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Answers one request; the default answers 200 `{"ok":true}`. */
export type Behaviour = (req: Received, res: http.ServerResponse) => void;

/**
 * A local HTTP receiver for flow steps: records every request and answers each path with
 * the behaviour set for it.
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  url = '';

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  on(path: string, behaviour: Behaviour): this {
    this.behaviours.set(path, behaviour);
    return this;
  }

  /** Requests received on `path`. */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const received = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      this.received.push(received);
      const behaviour = this.behaviours.get(url.pathname) ?? answer(200, { ok: true });
      behaviour(received, res);
    });
  }
}

/** Answers `status` with a JSON body and extra headers. */
export const answer =
  (status: number, body: unknown, headers: Record<string, string> = {}): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

/** Answers the i-th request (0-based) with the i-th behaviour, the last one thereafter. */
export const inTurn = (...behaviours: Behaviour[]): Behaviour => {
  let calls = 0;
  return (req, res) => behaviours[Math.min(calls++, behaviours.length - 1)](req, res);
};

/** Polls `read` until `done` holds of its value (at most `timeoutMs`), then returns the value. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  let last: T | undefined;
  return waitUntil(
    () => `a condition; last value: ${JSON.stringify(last)}`,
    async () => {
      last = await read();
      return done(last) ? last : undefined;
    },
    timeoutMs,
  );
}

/**
 * Waits until nothing of the flow is left to run: every event of its outbox delivered, every
 * execution finished, no job of it (or its company's event delivery) waiting, retrying or
 * running. From then on its steps post no more, so what a receiver holds is all it will get.
 */
export async function flowSettled(t: TestApp, companyId: string, flowId: string): Promise<void> {
  const left = async () => {
    const [row] = await t.app.orm.em.fork().execute(
      `select (select count(*) from flow_events where company_id = ? and flow_id = ? and delivered_at is null)::int as events,
              (select count(*) from webhook_executions where company_id = ? and flow_id = ? and status in ('scheduled', 'in_progress'))::int as executions,
              (select count(*) from pgboss.job where state in ('created', 'retry', 'active') and data ->> 'companyId' = ? and (
                 name = 'flow.events' or name = 'flow.step' and data ->> 'executionId' in (select id::text from webhook_executions where company_id = ? and flow_id = ?)))::int as jobs`,
      [companyId, flowId, companyId, flowId, companyId, companyId, flowId],
    );
    return row as { events: number; executions: number; jobs: number };
  };
  await waitFor(left, ({ events, executions, jobs }) => events + executions + jobs === 0);
}

/** Helpers over one company's flows, through the REST API. */
export function flowApi(t: TestApp, key: string) {
  const execution = async (flowId: string, id: string) => okData(await t.request('GET', `/v1/webhooks/${flowId}/executions/${id}`, { token: key }));
  return {
    async create(body: Record<string, unknown>) {
      return okData(await t.request('POST', '/v1/webhooks', { token: key, body: { name: 'Test flow', ...body } }));
    },
    async trigger(flowId: string, variables: Record<string, unknown> = {}) {
      return okData(await t.request('POST', `/v1/webhooks/${flowId}/trigger`, { token: key, body: { variables } }));
    },
    execution,
    /** Waits until the execution is `success` or `failed`, and returns it with its step log. */
    async settled(flowId: string, id: string, timeoutMs?: number) {
      return waitFor(
        () => execution(flowId, id),
        (e) => e.status === 'success' || e.status === 'failed',
        timeoutMs,
      );
    },
  };
}
