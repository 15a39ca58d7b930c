import { Call } from '../../../src/entities';
import { FROM, okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { insertCalls } from '../graphql/records';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const makeCall = (workspace = 'default') => t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123', workspace } });

describe('phone numbers', () => {
  it('adds numbers in E.164 with their country code, refuses duplicates and bad numbers', async () => {
    const made = okData(await t.request('POST', '/v1/phone-numbers', { token: a.key, body: { phone_number: '(415) 555-0177' } }));
    expect(made).toMatchObject({ phone_number: '+14155550177', country_code: '1', label: '', company_id: a.companyId });
    const dup = await t.request('POST', '/v1/phone-numbers', { token: a.key, body: { phone_number: '+1 415 555 0177' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ status: 'error', message: 'Phone number already added', data: '' });
    const bad = await t.request('POST', '/v1/phone-numbers', { token: a.key, body: { phone_number: '555' } });
    expect(bad.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field: 'phone_number', message: 'Invalid phone number format' }] });
  });

  it("refuses another company's number as in use, until that company removes it", async () => {
    const held = okData(await t.request('POST', '/v1/phone-numbers', { token: a.key, body: { phone_number: '+14155550179' } }));
    const taken = await t.request('POST', '/v1/phone-numbers', { token: b.key, body: { phone_number: '(415) 555-0179' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ status: 'error', message: 'Phone number is in use', data: '' });
    expect(okData<any[]>(await t.request('GET', '/v1/phone-numbers', { token: b.key })).map((n) => n.phone_number)).not.toContain('+14155550179');
    okData(await t.request('DELETE', `/v1/phone-numbers/${held.id}`, { token: a.key }));
    expect(okData(await t.request('POST', '/v1/phone-numbers', { token: b.key, body: { phone_number: '+14155550179' } }))).toMatchObject({ company_id: b.companyId });
  });

  it('gives a number added by two companies at once to exactly one (the database decides)', async () => {
    const tries = await Promise.all([a, b, a, b].map((tn) => t.request('POST', '/v1/phone-numbers', { token: tn.key, body: { phone_number: '+14155550180' } })));
    expect(tries.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const winner = tries.find((r) => r.status === 200)!.body.data.company_id;
    const loser = winner === a.companyId ? b : a;
    const lost = tries.filter((r, i) => r.status === 409 && [a, b, a, b][i] === loser);
    expect(lost.map((r) => r.body.message)).toEqual(['Phone number is in use', 'Phone number is in use']);
  });

  it("lists and deletes only the company's numbers; a deleted number can no longer place calls", async () => {
    const list = okData<any[]>(await t.request('GET', '/v1/phone-numbers', { token: a.key }));
    expect(list.every((n) => n.company_id === a.companyId)).toBe(true);
    const extra = okData(await t.request('POST', '/v1/phone-numbers', { token: a.key, body: { phone_number: '+14155550178' } }));
    expect((await t.request('DELETE', `/v1/phone-numbers/${extra.id}`, { token: b.key })).status).toBe(404);
    okData(await t.request('DELETE', `/v1/phone-numbers/${extra.id}`, { token: a.key }));
    const res = await t.request('POST', '/v1/calls/make-call', {
      token: a.key,
      body: { ai_agent_id: a.agent.id, call_from: '+14155550178', call_to: '+14155550123' },
    });
    expect(res.body).toEqual({ status: 'error', message: 'error', data: '' });
  });
});

describe('calls', () => {
  it('reads a call by id, only within the company', async () => {
    const call = okData(await makeCall());
    const read = okData(await t.request('GET', `/v1/calls/${call.id}`, { token: a.key }));
    expect(read).toMatchObject({ id: call.id, call_from: call.call_from, call_to: call.call_to, created_at: call.created_at });
    const foreign = await t.request('GET', `/v1/calls/${call.id}`, { token: b.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ status: 'error', message: 'Not found', data: '' });
  });

  it('lists calls newest first across pages with a cursor, filtered by workspace', async () => {
    for (let i = 0; i < 5; i++) okData(await makeCall('paging'));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `/v1/calls?workspace=paging&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = okData(await t.request('GET', q, { token: a.key }));
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((c: any) => c.id));
      expect(page.items.every((c: any) => c.workspace_id === 'paging')).toBe(true);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(okData(await t.request('GET', '/v1/calls?workspace=paging', { token: b.key })).items).toEqual([]);
  });

  it("answers a page in the bytes of its calls' by-id answers: every kind of field, nulls, decimals, JSON and instants", async () => {
    const em = t.app.orm.em.fork();
    const at = new Date('2026-11-20T10:00:00.120Z');
    em.create(Call, {
      company: a.companyId,
      aiAgent: a.agent.id,
      campaign: a.campaign.id,
      contact: a.contact.id,
      callProvider: 'simulated',
      callFrom: FROM,
      callTo: '+14155550199',
      priceUnit: 'USD',
      callStatus: 'completed',
      callDuration: 42,
      workspaceId: 'bytes',
      transcript: 'agent: Hi "there"\nuser: é ✓',
      transcriptObject: { turns: [{ role: 'agent', text: 'Hi', at: at.toISOString(), latency_ms: 120, latency: { llm_first_token_ms: 80, first_text_ms: 95 } }] },
      cost: 0.125,
      costTelephony: 0.1,
      costLlm: 0.025,
      costRecording: 0,
      metadata: { crm: { id: 7, tags: ['a', 'b'] }, note: null },
      agentDynamicVariables: [{ name: 'first_name', value: 'Ada' }],
      transfer: { to: '+14155550100', mode: 'cold', status: 'completed', started_at: at.toISOString() },
      answeredBy: 'human',
      startedAt: at,
      endedAt: new Date(at.getTime() + 42_000),
      createdAt: at,
    });
    em.create(Call, {
      company: a.companyId,
      aiAgent: a.agent.id,
      callProvider: 'simulated',
      callFrom: FROM,
      callTo: '+14155550198',
      priceUnit: 'USD',
      // Ended: a queued call would be placed by the call sweep between the reads compared.
      callStatus: 'canceled',
      workspaceId: 'bytes',
      createdAt: new Date(at.getTime() - 1),
    });
    await em.flush();
    const page = await t.request('GET', '/v1/calls?workspace=bytes&limit=1', { token: a.key });
    const rest = okData(await t.request('GET', `/v1/calls?workspace=bytes&cursor=${page.body.data.next_cursor}`, { token: a.key }));
    const items = [...page.body.data.items, ...rest.items];
    expect(items).toHaveLength(2);
    // A by-id answer is the JSON.stringify of the call's serialized view (its key order, numbers and escapes kept through a parse).
    const byId = await Promise.all(items.map(async (c: any) => okData(await t.request('GET', `/v1/calls/${c.id}`, { token: a.key }))));
    expect(page.text).toBe(JSON.stringify({ status: 'ok', message: 'ok', data: { items: [byId[0]], next_cursor: page.body.data.next_cursor } }));
    expect(byId[0]).toMatchObject({ cost: 0.125, cost_breakdown: { telephony: 0.1, llm: 0.025, recording: 0, total: 0.125 }, started_at: at.toISOString(), transfer: { mode: 'cold' } });
    expect(rest).toEqual({ items: [byId[1]], next_cursor: null });
  });

  it('refuses a bad limit or cursor with the field named', async () => {
    const limit = await t.request('GET', '/v1/calls?limit=0', { token: a.key });
    expect(limit.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field: 'limit', message: 'Must be between 1 and 200' }] });
    const cursor = await t.request('GET', '/v1/calls?cursor=garbage', { token: a.key });
    expect(cursor.body.data).toEqual([{ field: 'cursor', message: 'Invalid cursor' }]);
    const campaign = await t.request('GET', '/v1/calls?campaign_id=nope', { token: a.key });
    expect(campaign.body.data).toEqual([{ field: 'campaign_id', message: 'Must be a UUID' }]);
  });

  it("filters by contact: a contact's calls newest first; another company's contact answers an empty page, as its campaign does", async () => {
    const contact = okData(await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: '+14155550941' } }));
    const [older, newer] = await insertCalls(t, a, 2, { contact: contact.id });
    await insertCalls(t, a, 1);
    const page = okData(await t.request('GET', `/v1/calls?contact_id=${contact.id}&limit=1`, { token: a.key }));
    expect(page.items.map((c: any) => [c.id, c.contact_id])).toEqual([[newer.id, contact.id]]);
    const rest = okData(await t.request('GET', `/v1/calls?contact_id=${contact.id}&cursor=${page.next_cursor}`, { token: a.key }));
    expect(rest).toEqual({ items: [expect.objectContaining({ id: older.id })], next_cursor: null });
    expect(okData(await t.request('GET', `/v1/calls?contact_id=${contact.id}`, { token: b.key }))).toEqual({ items: [], next_cursor: null });
    expect(okData(await t.request('GET', `/v1/calls?campaign_id=${a.campaign.id}`, { token: b.key }))).toEqual({ items: [], next_cursor: null });
    const bad = await t.request('GET', '/v1/calls?contact_id=nope', { token: a.key });
    expect(bad.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field: 'contact_id', message: 'Must be a UUID' }] });
  });

  it('filters by creation time', async () => {
    const call = okData(await makeCall('dated'));
    const list = async (query: string) => okData(await t.request('GET', `/v1/calls?workspace=dated&${query}`, { token: a.key })).items.map((c: any) => c.id);
    expect(await list(`created_after=${encodeURIComponent(call.created_at)}`)).toEqual([call.id]);
    expect(await list(`created_before=${encodeURIComponent(call.created_at)}`)).toEqual([]);
    const bad = await t.request('GET', '/v1/calls?created_before=tomorrow', { token: a.key });
    expect(bad.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field: 'created_before', message: 'Must be an ISO 8601 timestamp' }] });
  });
});
