import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';
import { FROM, okData, tenant, type Tenant } from '../../support/fixtures';
import { type ApiResponse, startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import type { Caller } from '../../../src/services/shared/scope';
import { gql, gqlData } from '../graphql/graphql-client';

const CALL_ENV = { SIM_RING_MS: '20', SIM_TALK_MS: '50' };

describe('Idempotency-Key', () => {
  let t: TestApp;
  let replica: TestApp;
  let a: Tenant;
  let b: Tenant;
  let n = 0;
  /** A key no other test uses. */
  const freshKey = () => `key-${Date.now()}-${++n}`;

  beforeAll(async () => {
    t = await startTestApp(CALL_ENV);
    replica = await startTestApp({ ...CALL_ENV, DATABASE_URL: t.databaseUrl });
    a = await tenant(t, 'A');
    b = await tenant(t, 'B', '+14155552672');
  });
  afterAll(async () => {
    await replica.close();
    await t.close();
  });

  const callBody = (tenantOf: Tenant, to = '+14155550123') => ({ ai_agent_id: tenantOf.agent.id, call_from: tenantOf.number.phone_number, call_to: to });
  const makeCall = (app: TestApp, who: Tenant, key: string, body: unknown = callBody(who)) => app.request('POST', '/v1/calls/make-call', { token: who.key, body, headers: { 'Idempotency-Key': key } });
  const count = async (sql: string, params: unknown[]) => {
    const [row] = await t.app.orm.em.fork().execute(`select count(*)::int as n from ${sql}`, params);
    return row.n as number;
  };
  const callsTo = (who: Tenant, to: string) => count('calls where company_id = ? and call_to = ?', [who.companyId, to]);
  const expectReplay = (first: ApiResponse, again: ApiResponse) => {
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
  };

  it('answers a retried make-call with the first answer and places one call', async () => {
    const key = freshKey();
    const body = callBody(a, '+14155550301');
    const first = await makeCall(t, a, key, body);
    expect(okData(first).call_status).toBe('pstn-queued');
    const again = await makeCall(t, a, key, body);
    expectReplay(first, again);
    // Another replica knows the key too.
    expectReplay(first, await makeCall(replica, a, key, body));
    expect(await callsTo(a, '+14155550301')).toBe(1);
  });

  it('refuses the same key with another body: 422 in the envelope, nothing done', async () => {
    const key = freshKey();
    okData(await makeCall(t, a, key, callBody(a, '+14155550302')));
    const other = await makeCall(t, a, key, callBody(a, '+14155550303'));
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ status: 'error', message: 'Idempotency-Key was already used for a different request', data: '' });
    expect(await callsTo(a, '+14155550303')).toBe(0);
  });

  it('keeps keys per company', async () => {
    const key = freshKey();
    const mine = okData(await makeCall(t, a, key, callBody(a, '+14155550304')));
    const theirs = await makeCall(t, b, key, callBody(b, '+14155550304'));
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(okData(theirs).id).not.toBe(mine.id);
    expect(okData(theirs).company_id).toBe(b.companyId);
  });

  it('does not keep a failed validation: the fixed request with the same key runs', async () => {
    const key = freshKey();
    const bad = await makeCall(t, a, key, { ...callBody(a, '+14155550305'), call_to: 'not a number' });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual([{ field: 'call_to', message: expect.any(String) }]);
    const fixed = await makeCall(t, a, key, callBody(a, '+14155550305'));
    expect(okData(fixed).call_to).toBe('+14155550305');
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a key too long or not printable, naming the header', async () => {
    for (const key of ['', 'k'.repeat(256), 'clé', 'tab\there']) {
      const res = await makeCall(t, a, key, callBody(a, '+14155550306'));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field: 'Idempotency-Key', message: 'Must be 1 to 255 printable ASCII characters' }] });
    }
    expect(okData(await makeCall(t, a, ' ~'.repeat(100) + 'x'.repeat(55), callBody(a, '+14155550306'))).call_to).toBe('+14155550306');
    expect(await callsTo(a, '+14155550306')).toBe(1);
  });

  it('places one call for concurrent identical requests on two replicas: each answers the first answer or 409', async () => {
    const key = freshKey();
    const body = callBody(a, '+14155550307');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => makeCall(i % 2 ? replica : t, a, key, body)));
    const statuses = new Set(answers.map((r) => r.status));
    expect([...statuses].every((s) => s === 200 || s === 409)).toBe(true);
    const ok = answers.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((r) => r.body.data.id)).size).toBe(1);
    for (const r of answers.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ status: 'error', data: '' });
    expect(await callsTo(a, '+14155550307')).toBe(1);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const key = freshKey();
    const body = callBody(a, '+14155550308');
    let finish!: () => void;
    const held = t.app.services.idempotency.execute(
      { scope: { companyId: a.companyId, userId: null }, em: t.app.orm.em.fork() },
      {
        key,
        request: ['POST', '/v1/calls/make-call', body],
        run: () => new Promise<void>((resolve) => (finish = resolve)),
        keep: () => ({ status: 200, body: '{"status":"ok","message":"ok","data":"first"}' }),
        rebuild: () => Promise.reject(new Error('nothing was linked')),
      },
    );
    await waitFor('the key claimed', async () => (await count('idempotency_keys where company_id = ? and key = ?', [a.companyId, key])) === 1 || undefined);
    const running = await makeCall(replica, a, key, body);
    expect(running.status).toBe(409);
    expect(running.headers.get('retry-after')).toBe('1');
    expect(running.body).toEqual({ status: 'error', message: 'A request with this Idempotency-Key is still in progress; retry later', data: '' });
    finish();
    await held;
    const after = await makeCall(t, a, key, body);
    expect(after.body).toEqual({ status: 'ok', message: 'ok', data: 'first' });
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(await callsTo(a, '+14155550308')).toBe(0);
  });

  /**
   * The crash window (issue 26, item 22): the first request claimed its key and committed
   * what it created, and its process died before storing the answer. The state is made by
   * the real code path stopped there: the service creates under the key, then the request
   * never finishes, as a killed process does not.
   */
  const diedAfterCommitting = (key: string, path: string, body: unknown, create: (caller: Caller) => Promise<unknown>) => {
    const caller: Caller = { scope: { companyId: a.companyId, userId: null }, em: t.app.orm.em.fork() };
    return new Promise<void>((committed) => {
      void t.app.services.idempotency.execute(caller, {
        key,
        request: ['POST', path, body],
        run: async (keyed?: Caller) => {
          await create(keyed ?? caller);
          committed();
          return new Promise<never>(() => {});
        },
        keep: () => null,
        rebuild: () => Promise.reject(new Error('unused')),
      });
    });
  };
  /** Past the time after which an unfinished claim that wrote nothing is taken over. */
  const abandon = (key: string) => t.app.orm.em.fork().execute(`update idempotency_keys set claimed_at = now() - interval '1 hour' where company_id = ? and key = ?`, [a.companyId, key]);

  it('answers a key whose process died after committing its call from that call, and never calls again', async () => {
    const key = freshKey();
    const body = callBody(a, '+14155550314');
    await diedAfterCommitting(key, '/v1/calls/make-call', body, (keyed) => t.app.services.calls.makeCall(keyed, { aiAgentId: body.ai_agent_id, callFrom: body.call_from, callTo: body.call_to }));
    const [call] = await t.app.orm.em.fork().execute('select id from calls where company_id = ? and call_to = ?', [a.companyId, '+14155550314']);
    const retry = await makeCall(replica, a, key, body);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(okData(retry).id).toBe(call.id);
    await abandon(key);
    expect((await makeCall(t, a, key, body)).text).toBe(retry.text);
    expect(await callsTo(a, '+14155550314')).toBe(1);
  });

  it('answers a died flow trigger, contact import or campaign creation from what it created', async () => {
    const { flows, contacts, campaigns } = t.app.services;
    const cases: [string, unknown, (keyed: Caller) => Promise<unknown>, string, unknown[]][] = [
      [
        `/v1/webhooks/${a.flow.id}/trigger`,
        { variables: { died: 1 } },
        (k) => flows.trigger(k, a.flow.id, { variables: { died: 1 } }),
        'webhook_executions where company_id = ? and flow_id = ?',
        [a.companyId, a.flow.id],
      ],
      [
        '/v1/contacts',
        [
          { firstname: 'Died', phone_number: '+14155550315' },
          { firstname: 'Died', phone_number: '+14155550316' },
        ],
        (k) =>
          contacts.create(k, [
            { firstname: 'Died', phoneNumber: '+14155550315' },
            { firstname: 'Died', phoneNumber: '+14155550316' },
          ]),
        "contacts where company_id = ? and firstname = 'Died'",
        [a.companyId],
      ],
      ['/v1/campaigns', { name: 'Died campaign' }, (k) => campaigns.create(k, { name: 'Died campaign' }), "campaigns where company_id = ? and name = 'Died campaign'", [a.companyId]],
    ];
    for (const [path, body, create, table, params] of cases) {
      const key = freshKey();
      const before = await count(table, params);
      await diedAfterCommitting(key, path, body, create);
      await abandon(key);
      const retry = await t.request('POST', path, { token: a.key, body, headers: { 'Idempotency-Key': key } });
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await count(table, params)).toBe(before + (Array.isArray(body) ? body.length : 1));
    }
  });

  it('forgets a key after 24 hours: the sweep deletes it and the request runs again', async () => {
    const key = freshKey();
    const body = callBody(a, '+14155550309');
    okData(await makeCall(t, a, key, body));
    const [row] = await t.app.orm.em.fork().execute(`select extract(epoch from expires_at - claimed_at)::int as ttl from idempotency_keys where company_id = ? and key = ?`, [a.companyId, key]);
    expect(row.ttl).toBe(24 * 3600);
    await t.app.orm.em.fork().execute(`update idempotency_keys set expires_at = now() - interval '1 second' where company_id = ? and key = ?`, [a.companyId, key]);
    const again = await makeCall(t, a, key, body);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await callsTo(a, '+14155550309')).toBe(2);
    await t.app.orm.em.fork().execute(`update idempotency_keys set expires_at = now() - interval '1 second' where company_id = ?`, [a.companyId]);
    await t.app.services.idempotency.sweep(t.app.orm.em.fork());
    expect(await count('idempotency_keys where company_id = ?', [a.companyId])).toBe(0);
  });

  it('covers flow triggers, contacts and campaigns: a retry creates nothing new', async () => {
    const post = (path: string, body: unknown, key: string) => t.request('POST', path, { token: a.key, body, headers: { 'Idempotency-Key': key } });
    const cases: [string, unknown, string, unknown[]][] = [
      [`/v1/webhooks/${a.flow.id}/trigger`, { variables: { x: 1 } }, 'webhook_executions where company_id = ? and flow_id = ?', [a.companyId, a.flow.id]],
      ['/v1/contacts', { firstname: 'Idem', phone_number: '+14155550310' }, "contacts where company_id = ? and firstname = 'Idem'", [a.companyId]],
      ['/v1/campaigns', { name: 'Idem campaign' }, "campaigns where company_id = ? and name = 'Idem campaign'", [a.companyId]],
    ];
    for (const [path, body, table, params] of cases) {
      const key = freshKey();
      const before = await count(table, params);
      const first = await post(path, body, key);
      okData(first);
      expectReplay(first, await post(path, body, key));
      expect(await count(table, params)).toBe(before + 1);
    }
  });

  it('is documented in /openapi.json on the four operations', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const ops = [doc.paths['/v1/calls/make-call'].post, doc.paths['/v1/webhooks/{id}/trigger'].post, doc.paths['/v1/contacts'].post, doc.paths['/v1/campaigns'].post];
    for (const op of ops) {
      expect(op.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']));
      expect(op.responses[200].headers).toHaveProperty('Idempotent-Replayed');
    }
    expect(doc.paths['/v1/calls/{id}'].get.parameters.map((p: { name: string }) => p.name)).not.toContain('Idempotency-Key');
  });

  describe('over GraphQL (idempotencyKey)', () => {
    const makeCallMutation = `mutation ($input: MakeCallInput!, $key: String) { makeCall(input: $input, idempotencyKey: $key) { id callTo } }`;
    const input = (to: string) => ({ aiAgentId: a.agent.id, callFrom: FROM, callTo: to });

    it('answers a retried makeCall with the same call and places one', async () => {
      const key = freshKey();
      const first = await gqlData(t, makeCallMutation, { input: input('+14155550311'), key }, a.key);
      const again = await gqlData(replica, makeCallMutation, { input: input('+14155550311'), key }, a.key);
      expect(again.makeCall).toEqual(first.makeCall);
      expect(await callsTo(a, '+14155550311')).toBe(1);
      const other = await gql(t, makeCallMutation, { input: input('+14155550312'), key }, a.key);
      expect(other.errors?.[0]).toMatchObject({ message: 'Idempotency-Key was already used for a different request', extensions: { code: 'UNPROCESSABLE' } });
      const bad = await gql(t, makeCallMutation, { input: input('+14155550312'), key: 'k'.repeat(256) }, a.key);
      expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'idempotencyKey' }] });
      expect(await callsTo(a, '+14155550312')).toBe(0);
    });

    it('knows a makeCall by its input as REST names it, so that keys kept before a release still replay after it', async () => {
      const key = freshKey();
      const variables = [{ name: 'plan', value: 'gold' }];
      await gqlData(t, makeCallMutation, { input: { ...input('+14155550313'), dynamicVariables: variables }, key }, a.key);
      const [row] = await t.app.orm.em.fork().execute('select fingerprint from idempotency_keys where company_id = ? and key = ?', [a.companyId, key]);
      const request = ['graphql', 'makeCall', { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550313', dynamic_variables: variables }];
      expect(row.fingerprint).toBe(createHash('sha256').update(stringify(request)).digest('hex'));
    });

    it('answers a retried triggerWebhook with the same execution', async () => {
      const trigger = `mutation ($id: ID!, $key: String) { triggerWebhook(id: $id, variables: {v: 1}, idempotencyKey: $key) { id } }`;
      const key = freshKey();
      const before = await count('webhook_executions where company_id = ? and flow_id = ?', [a.companyId, a.flow.id]);
      const first = await gqlData(t, trigger, { id: a.flow.id, key }, a.key);
      const again = await gqlData(t, trigger, { id: a.flow.id, key }, a.key);
      expect(again.triggerWebhook.id).toBe(first.triggerWebhook.id);
      expect(await count('webhook_executions where company_id = ? and flow_id = ?', [a.companyId, a.flow.id])).toBe(before + 1);
    });
  });
});
