import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { startApp } from '../../../src/app';
import { createLogger } from '../../../src/logger';
import { SecretBox } from '../../../src/services/shared/secret-box';
import { okData } from '../../support/fixtures';
import { startTestApp, TEST_SECRETS_KEY, type TestApp, testConfig } from '../../support/harness';
import { FLOW_ENV, flowApi, Receiver } from './support';

// Flow signing secrets and secret predefined variables are encrypted at rest under
// SECRETS_KEY (docs/operations.md, "Secrets at rest"): read here from the database itself.

let rx: Receiver;
let t: TestApp;
let key: string;
let db: pg.Client;

beforeAll(async () => {
  rx = await Receiver.start();
  t = await startTestApp(FLOW_ENV);
  key = (await t.company('Vault')).apiKey;
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await t.close();
  await rx.close();
});

const run = promisify(execFile);
const row = async (sql: string, params: unknown[]) => (await db.query(sql, params)).rows[0];
const ENVELOPE = /^enc:v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/;

/** A flow whose one step sends its secrets in a header, the query and the body, and its execution once settled. */
async function flowWithSecrets(path: string) {
  const api = flowApi(t, key);
  const flow = await api.create({
    predefinedVariables: [
      { name: 'api_token', value: 'tok_live_42' },
      { name: 'hook', value: 'hook-secret-7', secret: true },
      { name: 'region', value: 'eu' },
    ],
    steps: [
      {
        step_number: 1,
        webhook_url: `${rx.url}${path}`,
        webhook_url_params: { h: '{{hook}}' },
        webhook_headers: { Authorization: 'Bearer {{api_token}}', 'X-Hook': '{{hook}}' },
        webhook_body: { hook: '{{hook}}', region: '{{region}}' },
      },
    ],
  });
  const execution = await api.settled(flow.id, (await api.trigger(flow.id)).id);
  return { flow, execution };
}

describe('secrets at rest', () => {
  it('are stored encrypted (flow, execution snapshot), read back masked, sent in clear, and masked in the stored step log', async () => {
    const { flow, execution } = await flowWithSecrets('/vault');
    expect(execution.status).toBe('success');

    const stored = await row('SELECT secret, predefined_variables FROM webhook_flows WHERE id = $1', [flow.id]);
    expect(stored.secret).toMatch(ENVELOPE);
    expect(stored.secret).not.toContain(flow.secret.slice(6));
    const [token, hook, region] = stored.predefined_variables;
    expect(token.value).toMatch(ENVELOPE);
    expect(hook.value).toMatch(ENVELOPE);
    expect(region.value).toBe('eu');
    const snapshot = await row('SELECT definition::text AS definition FROM webhook_executions WHERE id = $1', [execution.id]);
    expect(snapshot.definition).not.toMatch(/tok_live_42|hook-secret-7/);
    const log = await row('SELECT request::text AS request FROM webhook_step_runs WHERE execution_id = $1', [execution.id]);
    expect(log.request).toContain('[redacted]');
    expect(log.request).not.toMatch(/tok_live_42|hook-secret-7/);

    expect(okData(await t.request('GET', `/v1/webhooks/${flow.id}`, { token: key })).predefinedVariables).toEqual([
      { name: 'api_token', value: '********', secret: true },
      { name: 'hook', value: '********', secret: true },
      { name: 'region', value: 'eu', secret: false },
    ]);
    const [received] = rx.at('/vault');
    expect(received.headers.authorization).toBe('Bearer tok_live_42');
    expect(received.headers['x-hook']).toBe('hook-secret-7');
    expect(received.query.get('h')).toBe('hook-secret-7');
    expect(new Webhook(flow.secret).verify(received.body, received.headers as Record<string, string>)).toEqual({ hook: 'hook-secret-7', region: 'eu' });
  });

  it('a kept value stays secret: an update that sends the mask back unflagged does not reveal it', async () => {
    const { flow } = await flowWithSecrets('/kept');
    const sent = [{ name: 'hook', value: '********', secret: false }];
    const updated = okData(await t.request('PATCH', `/v1/webhooks/${flow.id}`, { token: key, body: { predefinedVariables: sent } }));
    expect(updated.predefinedVariables).toEqual([{ name: 'hook', value: '********', secret: true }]);
    const stored = await row('SELECT predefined_variables FROM webhook_flows WHERE id = $1', [flow.id]);
    expect(stored.predefined_variables[0].value).toMatch(ENVELOPE);
  });

  it('stored in clear by an earlier release are encrypted at the next start, their step logs masked; steps still send them', async () => {
    const { flow, execution } = await flowWithSecrets('/legacy');
    // As an earlier release left them: everything in clear.
    const clearSecret = 'whsec_bGVnYWN5LXNpZ25pbmctc2VjcmV0LTMyLWJ5dGVzISE=';
    const clearVariables = [
      { name: 'api_token', value: 'tok_old_9' },
      { name: 'hook', value: 'hook-old-3', secret: true },
      { name: 'region', value: 'eu' },
    ];
    await db.query('UPDATE webhook_flows SET secret = $2, predefined_variables = $3 WHERE id = $1', [flow.id, clearSecret, JSON.stringify(clearVariables)]);
    await db.query(`UPDATE webhook_executions SET definition = jsonb_set(definition, '{predefinedVariables}', $2::jsonb) WHERE id = $1`, [execution.id, JSON.stringify(clearVariables)]);
    await db.query(`UPDATE webhook_step_runs SET request = jsonb_set(request, '{body}', to_jsonb($2::text)), error = $3 WHERE execution_id = $1`, [
      execution.id,
      '{"hook":"hook-old-3"}',
      'sent tok_old_9',
    ]);

    await t.restart();

    const stored = await row('SELECT secret, predefined_variables::text AS variables FROM webhook_flows WHERE id = $1', [flow.id]);
    expect(stored.secret).toMatch(ENVELOPE);
    expect(stored.variables).not.toMatch(/tok_old_9|hook-old-3/);
    expect(stored.variables).toContain('"eu"');
    const snapshot = await row('SELECT definition::text AS definition FROM webhook_executions WHERE id = $1', [execution.id]);
    expect(snapshot.definition).not.toMatch(/tok_old_9|hook-old-3/);
    const log = await row("SELECT request->>'body' AS body, error FROM webhook_step_runs WHERE execution_id = $1", [execution.id]);
    expect(log).toEqual({ body: '{"hook":"[redacted]"}', error: 'sent [redacted]' });

    const api = flowApi(t, key);
    await api.settled(flow.id, (await api.trigger(flow.id)).id);
    const resent = rx.at('/legacy')[1];
    expect(resent.headers.authorization).toBe('Bearer tok_old_9');
    expect(new Webhook(clearSecret).verify(resent.body, resent.headers as Record<string, string>)).toEqual({ hook: 'hook-old-3', region: 'eu' });

    // Idempotent: a second start finds nothing left in clear and changes nothing.
    const before = await row('SELECT secret, predefined_variables::text AS variables FROM webhook_flows WHERE id = $1', [flow.id]);
    await t.restart();
    expect(await row('SELECT secret, predefined_variables::text AS variables FROM webhook_flows WHERE id = $1', [flow.id])).toEqual(before);
  });

  it('under another key, start-up stops with a clear error instead of using garbage', async () => {
    await flowWithSecrets('/other-key');
    const other = testConfig(t.databaseUrl, { ...FLOW_ENV, SECRETS_KEY: Buffer.alloc(32, 9).toString('hex') });
    await expect(startApp(other, createLogger('silent'))).rejects.toThrow(/A stored secret does not decrypt with SECRETS_KEY \(nor SECRETS_PREVIOUS_KEYS\): it was encrypted with another key/);
  });
});

describe('rotating the key (SECRETS_PREVIOUS_KEYS, admin rotate-secrets)', () => {
  const NEW_KEY = Buffer.alloc(32, 5).toString('base64');
  // What `npm run --silent admin` runs once it has built dist (the global set-up built it for the run).
  const rotate = async (env: Record<string, string>) => {
    try {
      const { stdout, stderr } = await run(process.execPath, ['dist/src/cli/admin.js', 'rotate-secrets'], {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.databaseUrl, ...env },
        timeout: 60_000,
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const { code, stdout, stderr } = err as { code: number; stdout: string; stderr: string };
      return { code, stdout, stderr };
    }
  };
  /** Every encrypted value of the database, each with whether `key` alone decrypts it. */
  const sealedValues = async (key: string) => {
    const box = new SecretBox(Buffer.from(key, 'base64'));
    const { rows } = await db.query<{ value: string }>(
      `SELECT secret AS value FROM webhook_flows WHERE secret LIKE 'enc:%'
       UNION ALL SELECT v ->> 'value' FROM webhook_flows, jsonb_array_elements(predefined_variables) v WHERE v ->> 'value' LIKE 'enc:%'
       UNION ALL SELECT v ->> 'value' FROM webhook_executions, jsonb_array_elements(definition -> 'predefinedVariables') v WHERE v ->> 'value' LIKE 'enc:%'`,
    );
    return rows.map(({ value }) => {
      try {
        box.open(value);
        return true;
      } catch {
        return false;
      }
    });
  };

  it("reads the old key's values under the new one, encrypts them again once, then runs on the new key alone", async () => {
    const { flow } = await flowWithSecrets('/rotated');
    const signing = (await row('SELECT secret FROM webhook_flows WHERE id = $1', [flow.id])).secret as string;
    const clearSigning = new SecretBox(Buffer.from(TEST_SECRETS_KEY, 'base64')).open(signing);

    // A replica of the new release: the new key, the old one still read.
    await t.restart({ ...FLOW_ENV, SECRETS_KEY: NEW_KEY, SECRETS_PREVIOUS_KEYS: TEST_SECRETS_KEY });
    const api = flowApi(t, key);
    await api.settled(flow.id, (await api.trigger(flow.id)).id);
    const before = await sealedValues(NEW_KEY);
    expect(before.filter((opens) => !opens).length).toBeGreaterThanOrEqual(3);

    // A rotation with a key that encrypted nothing here stops naming the keys, and changes nothing.
    const wrong = await rotate({ SECRETS_KEY: NEW_KEY, SECRETS_PREVIOUS_KEYS: Buffer.alloc(32, 6).toString('base64') });
    expect(wrong).toMatchObject({ code: 1, stdout: '' });
    expect(wrong.stderr.trim()).toMatch(/^A stored secret does not decrypt with SECRETS_KEY \(nor SECRETS_PREVIOUS_KEYS\)/);
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
    expect(await sealedValues(NEW_KEY)).toEqual(before);

    const rotated = await rotate({ SECRETS_KEY: NEW_KEY, SECRETS_PREVIOUS_KEYS: TEST_SECRETS_KEY });
    expect(rotated.code).toBe(0);
    const { resealed } = JSON.parse(rotated.stdout);
    expect(resealed.flows).toBeGreaterThanOrEqual(1);
    expect(resealed.executions).toBeGreaterThanOrEqual(1);
    const after = await sealedValues(NEW_KEY);
    expect(after.length).toBe(before.length);
    expect(after.every(Boolean)).toBe(true);
    expect(JSON.parse((await rotate({ SECRETS_KEY: NEW_KEY, SECRETS_PREVIOUS_KEYS: TEST_SECRETS_KEY })).stdout)).toEqual({ resealed: { flows: 0, executions: 0 } });

    // The old key forgotten: the service starts, and its steps send the same secrets, signed with the same signing secret.
    await t.restart({ ...FLOW_ENV, SECRETS_KEY: NEW_KEY });
    await api.settled(flow.id, (await api.trigger(flow.id)).id);
    const sent = rx.at('/rotated').at(-1)!;
    expect(sent.headers['x-hook']).toBe('hook-secret-7');
    expect(sent.headers.authorization).toBe('Bearer tok_live_42');
    expect(new Webhook(clearSigning).verify(sent.body, sent.headers as Record<string, string>)).toEqual({ hook: 'hook-secret-7', region: 'eu' });
  }, 90_000);
});
