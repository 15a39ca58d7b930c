import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { ManualClock } from '../../support/clock';
import { startTestApp, type TestApp } from '../../support/harness';
import { type CampaignApi, campaignApi, DIALER_ENV, people } from '../campaigns/support';
import { waitFor } from '../../support/wait';

let t: TestApp;
let a: Tenant;
let b: Tenant;
let api: CampaignApi;

beforeAll(async () => {
  // Monday 2026-11-23, 10:00 in New York: campaigns' calling windows are open.
  t = await startTestApp(DIALER_ENV, { clock: new ManualClock(new Date('2026-11-23T15:00:00Z')) });
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
  api = campaignApi(t, a);
});
afterAll(() => t.close());

const post = (who: Tenant, path: string, body?: unknown) => t.request('POST', path, { token: who.key, body });
const get = (who: Tenant, path: string) => t.request('GET', path, { token: who.key });
const newAgent = async (prompt = 'First prompt') => okData(await post(a, '/v1/ai-agent', { name: 'Versioned', prompt }));
const publish = async (agentId: string, body: unknown = {}) => okData(await post(a, `/v1/ai-agent/${agentId}/publish`, body));
const edit = async (agentId: string, body: unknown) => okData(await t.request('PATCH', `/v1/ai-agent/${agentId}`, { token: a.key, body }));
const makeCall = (body: Record<string, unknown>) => post(a, '/v1/calls/make-call', { call_from: FROM, call_to: '+14155550123', ...body });

describe('publishing an agent', () => {
  it('answers the new version with every agent field, numbered 1, 2, 3 per agent, and lists them newest first', async () => {
    const agent = await newAgent();
    const first = await publish(agent.id, { note: 'launch' });
    const { id: _id, workspace_id: _workspace, ...settings } = agent;
    expect(first).toEqual({ agent_id: agent.id, version: 1, published_at: expect.any(String), note: 'launch', ...settings });
    await edit(agent.id, { prompt: 'Second prompt' });
    const second = okData(await post(a, `/v1/ai-agent/${agent.id}/publish`));
    expect(second).toMatchObject({ version: 2, note: null, prompt: 'Second prompt' });

    const listed = okData(await get(a, `/v1/ai-agent/${agent.id}/versions`));
    expect(listed.items.map((v: any) => v.version)).toEqual([2, 1]);
    expect(listed.next_cursor).toBeNull();
    const page = okData(await get(a, `/v1/ai-agent/${agent.id}/versions?limit=1`));
    expect(page.items.map((v: any) => v.version)).toEqual([2]);
    const rest = okData(await get(a, `/v1/ai-agent/${agent.id}/versions?limit=1&cursor=${page.next_cursor}`));
    expect(rest.items.map((v: any) => v.version)).toEqual([1]);
    expect(okData(await get(a, `/v1/ai-agent/${agent.id}/versions/1`))).toEqual(first);
  });

  it('keeps a published version as it was when the draft changes, and reads the draft unchanged', async () => {
    const agent = await newAgent();
    await publish(agent.id);
    const edited = await edit(agent.id, { prompt: 'Edited', llm_temperature: 80 });
    expect(okData(await get(a, `/v1/ai-agent/${agent.id}/versions/1`))).toMatchObject({ prompt: 'First prompt', llm_temperature: agent.llm_temperature });
    expect(okData(await get(a, `/v1/ai-agent/${agent.id}`))).toEqual(edited);
  });

  it('rolls back: from_version publishes an old version again under a new number', async () => {
    const agent = await newAgent();
    await publish(agent.id);
    await edit(agent.id, { prompt: 'Broken prompt' });
    await publish(agent.id, { note: 'oops' });
    const rolled = await publish(agent.id, { from_version: 1, note: 'roll back' });
    expect(rolled).toMatchObject({ version: 3, prompt: 'First prompt', note: 'roll back' });
    expect(okData(await get(a, `/v1/ai-agent/${agent.id}`)).prompt).toBe('Broken prompt');
    const missing = await post(a, `/v1/ai-agent/${agent.id}/publish`, { from_version: 9 });
    expect(missing.status).toBe(400);
    expect(missing.body.data).toEqual([{ field: 'from_version', message: 'No such version of this agent' }]);
  });

  it('numbers concurrent publishes 1..n without gaps or clashes', async () => {
    const agent = await newAgent();
    const all = await Promise.all(Array.from({ length: 8 }, () => post(a, `/v1/ai-agent/${agent.id}/publish`, {})));
    expect(all.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(all.map((r) => r.body.data.version).sort((x: number, y: number) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const listed = okData(await get(a, `/v1/ai-agent/${agent.id}/versions`));
    expect(listed.items.map((v: any) => v.version)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it("refuses bad input with a field error, and other companies' agents and templates with 404", async () => {
    const agent = await newAgent();
    const bad = await post(a, `/v1/ai-agent/${agent.id}/publish`, { note: 'x'.repeat(1001), from_version: 0, other: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.data.map((e: any) => e.field).sort()).toEqual(['from_version', 'note', 'other']);
    await publish(agent.id);
    const [template] = okData<any[]>(await get(a, '/v1/ai-agent/templates'));
    for (const res of [
      await post(b, `/v1/ai-agent/${agent.id}/publish`, {}),
      await get(b, `/v1/ai-agent/${agent.id}/versions`),
      await get(b, `/v1/ai-agent/${agent.id}/versions/1`),
      await post(a, `/v1/ai-agent/${template.id}/publish`, {}),
      await get(a, `/v1/ai-agent/${agent.id}/versions/2`),
    ]) {
      expect(res.status).toBe(404);
    }
    expect(okData(await get(b, `/v1/ai-agent/${template.id}/versions`)).items).toEqual([]);
    expect((await get(a, `/v1/ai-agent/${agent.id}/versions/abc`)).status).toBe(400);
  });
});

describe('the version a call runs', () => {
  it('is the draft (null) before any publish, then the latest published, or the one make-call names', async () => {
    const agent = await newAgent();
    expect(okData(await makeCall({ ai_agent_id: agent.id })).ai_agent_version).toBeNull();
    await publish(agent.id);
    await publish(agent.id);
    const latest = okData(await makeCall({ ai_agent_id: agent.id }));
    expect(latest.ai_agent_version).toBe(2);
    const pinned = okData(await makeCall({ ai_agent_id: agent.id, ai_agent_version: 1 }));
    expect(pinned.ai_agent_version).toBe(1);
    expect(okData(await get(a, `/v1/calls/${pinned.id}`)).ai_agent_version).toBe(1);
    const missing = await makeCall({ ai_agent_id: agent.id, ai_agent_version: 3 });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: 'error', data: [{ field: 'ai_agent_version', message: 'No such version of this agent' }] });
  });

  it('is the one a campaign pins, and a campaign naming a version its agent lacks is refused naming the field', async () => {
    const agent = await newAgent();
    await publish(agent.id);
    await publish(agent.id);
    const bad = await post(a, '/v1/campaigns', { name: 'x', ai_agent_id: agent.id, ai_agent_version: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual([{ field: 'ai_agent_version', message: "No such version of the campaign's agent" }]);
    const both = await post(a, '/v1/campaigns', { name: 'x', ai_agent_id: agent.id, ai_agent_version: 1, ai_agent_versions: [{ version: 2, weight: 1 }] });
    expect(both.body.data).toEqual([{ field: 'ai_agent_versions', message: 'Give ai_agent_version or ai_agent_versions, not both' }]);
    const split = await post(a, '/v1/campaigns', {
      name: 'x',
      ai_agent_id: agent.id,
      ai_agent_versions: [
        { version: 1, weight: 1 },
        { version: 7, weight: 1 },
      ],
    });
    expect(split.body.data).toEqual([{ field: 'ai_agent_versions[1].version', message: "No such version of the campaign's agent" }]);

    const contacts = await api.contacts(people(3, 4100), { tag_name: 'pinned' });
    const campaign = await api.campaign({ ai_agent_id: agent.id, ai_agent_version: 1, contacts_list_tags: [['pinned']] });
    expect(campaign).toMatchObject({ ai_agent_version: 1, ai_agent_versions: null });
    await api.update(campaign.id, { status: 'active' });
    const calls = await waitFor('three calls', async () => ((await api.calls(campaign.id)).length === contacts.length ? api.calls(campaign.id) : undefined));
    expect(calls.map((c: any) => c.ai_agent_version)).toEqual([1, 1, 1]);
  });

  it('splits a campaign between versions by weight, each call recording which it ran', async () => {
    const agent = await newAgent();
    await publish(agent.id);
    await publish(agent.id);
    await publish(agent.id);
    const contacts = await api.contacts(people(40, 4200), { tag_name: 'split' });
    const campaign = await api.campaign({
      ai_agent_id: agent.id,
      ai_agent_versions: [
        { version: 1, weight: 1 },
        { version: 3, weight: 1 },
      ],
      contacts_list_tags: [['split']],
      max_concurrent_calls: 40,
      status: 'active',
    });
    expect(campaign.ai_agent_versions).toEqual([
      { version: 1, weight: 1 },
      { version: 3, weight: 1 },
    ]);
    const calls: any[] = await waitFor('every contact called', async () => {
      const found = await api.calls(campaign.id);
      return found.length === contacts.length ? found : undefined;
    });
    const byVersion = new Map<number, number>();
    for (const c of calls) byVersion.set(c.ai_agent_version, (byVersion.get(c.ai_agent_version) ?? 0) + 1);
    expect([...byVersion.keys()].sort()).toEqual([1, 3]);
    // 40 fair coin flips: each side gets at least 8 but in about one run in 10^5.
    expect(Math.min(...byVersion.values())).toBeGreaterThanOrEqual(8);
  });
});

describe('settingsFor, what simulated calls ask', () => {
  it("answers the draft for null, a version's snapshot for its number, and a field error naming the field for a missing one", async () => {
    const agent = await newAgent('Published prompt');
    await publish(agent.id);
    await edit(agent.id, { prompt: 'Draft prompt' });
    const caller = (who: Tenant) => ({ scope: { companyId: who.companyId, userId: null }, em: t.app.orm.em.fork() });
    const versions = t.app.services.agentVersions;
    expect((await versions.settingsFor(caller(a), agent.id, null)).prompt).toBe('Draft prompt');
    expect((await versions.settingsFor(caller(a), agent.id, 1)).prompt).toBe('Published prompt');
    await expect(versions.settingsFor(caller(a), agent.id, 2)).rejects.toMatchObject({ fields: [{ field: 'version', message: 'No such version of this agent' }] });
    await expect(versions.settingsFor(caller(b), agent.id, 1)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
