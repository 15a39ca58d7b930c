import { startTestApp, type TestApp } from './harness';

export const FROM = '+14155552671';

/** Asserts a successful envelope and returns its data. */
export function okData<T = any>(res: { status: number; body: any }): T {
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'ok', message: 'ok' });
  return res.body.data as T;
}

export interface Tenant {
  companyId: string;
  key: string;
  agent: any;
  number: any;
  campaign: any;
  contact: any;
  flow: any;
}

/** A company with one record of every kind, made through the REST management operations. */
export async function tenant(t: TestApp, name = 'Acme', from = FROM): Promise<Tenant> {
  const { companyId, apiKey: key } = await t.company(name);
  const post = async (path: string, body: unknown) => okData(await t.request('POST', path, { token: key, body }));
  const agent = await post('/v1/ai-agent', { name: `${name} agent`, prompt: 'Hello {{firstname}}' });
  const number = await post('/v1/phone-numbers', { phone_number: from, label: 'main' });
  const flow = await post('/v1/webhooks', {
    name: `${name} flow`,
    steps: [{ step_number: 1, webhook_url: 'https://example.com/hook', webhook_method: 'POST' }],
  });
  const campaign = await post('/v1/campaigns', { name: `${name} campaign`, ai_agent_id: agent.id, outbound_phone_number_id: number.id });
  const contact = await post('/v1/contacts', { firstname: 'Ada', phone_number: '+14155550199', campaign_id: campaign.id });
  return { companyId, key, agent, number, campaign, contact, flow };
}

/** A running service with two companies, A and B (numbers FROM and +14155552672), each with one record of every kind. */
export async function twoTenants(env: Record<string, string> = {}): Promise<{ t: TestApp; a: Tenant; b: Tenant }> {
  const t = await startTestApp(env);
  return { t, a: await tenant(t, 'A'), b: await tenant(t, 'B', '+14155552672') };
}

/** A running service with one company, A, with one record of every kind. */
export async function oneTenant(env: Record<string, string> = {}): Promise<{ t: TestApp; a: Tenant }> {
  const t = await startTestApp(env);
  return { t, a: await tenant(t, 'A') };
}
