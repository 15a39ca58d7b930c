/**
 * The bare baseline of `npm run bench`: node:http and a pg pool of the service's size, no
 * framework, no ORM, no authentication, running the SELECTs the service runs for
 * `GET /v1/campaigns/by-id/{id}` and `GET /v1/campaigns/list` of one company, answering
 * the rows in the same envelope; and, for `POST /v1/calls/make-call`, the make-call insert
 * anchor: the JSON body stored by one `INSERT … RETURNING` into a table of its own (a primary
 * key and the body), the row answered. Started by bench/run.ts as a process of its own:
 *   DATABASE_URL=... PORT=... COMPANY_ID=... POOL_MAX=10 node dist/bench/baseline.js
 */
import http from 'node:http';
import pg from 'pg';

const BY_ID = 'select * from campaigns where id = $1 and company_id = $2 and deleted_at is null limit 1';
const LIST = 'select * from campaigns where company_id = $1 and deleted_at is null order by created_at desc, id desc';

const INSERT = 'insert into bench_make_calls (company_id, body) values ($1, $2) returning *';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_MAX) });
const companyId = process.env.COMPANY_ID;

function send(res: http.ServerResponse, status: number, data: unknown): void {
  const body = JSON.stringify({ status: status === 200 ? 'ok' : 'error', message: status === 200 ? 'ok' : 'Not found', data });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
}

function insert(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    pool.query(INSERT, [companyId, Buffer.concat(chunks).toString('utf8')]).then(
      ({ rows }) => send(res, 200, rows[0]),
      (err: unknown) => send(res, 500, String(err)),
    );
  });
}

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/v1/calls/make-call') {
    insert(req, res);
    return;
  }
  const byId = /^\/v1\/campaigns\/by-id\/([0-9a-f-]{36})$/.exec(req.url ?? '');
  const query = byId ? pool.query(BY_ID, [byId[1], companyId]) : req.url === '/v1/campaigns/list' ? pool.query(LIST, [companyId]) : null;
  if (!query) {
    send(res, 404, '');
    return;
  }
  query.then(
    ({ rows }) => (byId ? (rows[0] ? send(res, 200, rows[0]) : send(res, 404, '')) : send(res, 200, rows)),
    (err: unknown) => send(res, 500, String(err)),
  );
});
server.keepAliveTimeout = 65_000;
void pool
  .query('create table if not exists bench_make_calls (id uuid primary key default gen_random_uuid(), company_id uuid not null, body jsonb not null, created_at timestamptz not null default now())')
  .then(() => server.listen(Number(process.env.PORT), '127.0.0.1'));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
