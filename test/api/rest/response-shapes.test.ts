import { z } from 'zod';
import { agentShape } from '../../../src/rest/agent.serializer';
import { callPageShape, callShape } from '../../../src/rest/call.serializer';
import { campaignShape } from '../../../src/rest/campaign.serializer';
import { contactShape } from '../../../src/rest/contact.serializer';
import { errorEnvelopeShape, okEnvelopeShape, quirkErrorShape } from '../../../src/rest/envelope';
import { phoneNumberShape } from '../../../src/rest/phone-number.serializer';
import { executionDetailShape, executionItemShape } from '../../../src/rest/webhook-execution.serializer';
import { flowShape, flowWithSecretShape } from '../../../src/rest/webhook.serializer';
import { FLOW_ENV, Receiver } from '../flows/support';
import { FROM, oneTenant, type Tenant } from '../../support/fixtures';
import type { ApiResponse, TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

/**
 * Real answers checked against the zod shapes that /openapi.json publishes for them: a field
 * added, renamed or retyped in a serializer fails here (the shapes are strict).
 */
let t: TestApp;
let a: Tenant;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await Receiver.start();
  ({ t, a } = await oneTenant(FLOW_ENV));
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const call = (method: string, path: string, body?: unknown) => t.request(method, path, { token: a.key, body });

/** Asserts HTTP 200 and that the whole body is the success envelope around `data` of this shape. */
function expectShape<T extends z.ZodType>(res: ApiResponse, data: T): z.output<T> {
  expect(res.status).toBe(200);
  const parsed = okEnvelopeShape(data).safeParse(res.body);
  if (!parsed.success) throw new Error(`${z.prettifyError(parsed.error)}\nin ${res.text.slice(0, 500)}`);
  return (parsed.data as { data: z.output<T> }).data;
}

const list = <T extends z.ZodType>(shape: T) => z.array(shape).min(1);

it('phone numbers', async () => {
  expectShape(await call('GET', '/v1/phone-numbers'), list(phoneNumberShape));
  const added = expectShape(await call('POST', '/v1/phone-numbers', { phone_number: '(415) 555-0123' }), phoneNumberShape);
  expect(added.phone_number).toBe('+14155550123');
});

it('agents and agent templates', async () => {
  expectShape(await call('GET', '/v1/ai-agent'), list(agentShape));
  const templates = expectShape(await call('GET', '/v1/ai-agent/templates'), list(agentShape));
  expectShape(await call('GET', `/v1/ai-agent/${templates[0].id}`), agentShape);
  expectShape(await call('PATCH', `/v1/ai-agent/${a.agent.id}`, { responsiveness: 70, agent_flow: { states: [] } }), agentShape);
});

it('campaigns, with every optional field set', async () => {
  const update = { started_at: '2026-01-05', ended_at: '2026-02-01', webhook_id: a.flow.id, retry_delay: [1], retry_delay_unit: ['hours'], number_of_call_attempts: [2] };
  expectShape(await call('POST', `/compaign/v1/campaign/update/${a.campaign.id}`, update), z.literal('Campaign updated'));
  const got = expectShape(await call('GET', `/v1/campaigns/by-id/${a.campaign.id}`), campaignShape);
  expect(got.started_at).toBe('2026-01-05');
  expectShape(await call('GET', '/v1/campaigns/list'), list(campaignShape));
  expectShape(await call('GET', '/v1/campaigns/by-workspace/default'), list(campaignShape));
});

it('contacts: one, a bulk import, the legacy listing', async () => {
  expectShape(await call('POST', '/v1/contacts', [{ phone_number: '+442071838750' }, { phone_number: '+14155550177', metadata: { vip: true } }]), list(contactShape));
  expectShape(await call('GET', `/v1/contacts/${a.contact.id}`), contactShape);
  expectShape(await call('GET', '/compaign/v1/contact'), list(contactShape));
});

it('calls: make-call, get, list, cancel', async () => {
  const made = expectShape(await call('POST', '/v1/calls/make-call', { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550100', dynamic_variables: [{ name: 'x', value: 'y' }] }), callShape);
  expectShape(await call('GET', `/v1/calls/${made.id}`), callShape);
  expectShape(await call('GET', '/v1/calls?limit=5'), callPageShape);
  const canceled = expectShape(await call('POST', `/v1/calls/${made.id}/cancel`), callShape);
  expect(['canceled', 'completed']).toContain(canceled.call_status);
});

it('webhook flows, templates, executions with their step log', async () => {
  receiver.on('/hook', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  const created = expectShape(
    await call('POST', '/v1/webhooks', {
      name: 'Shapes',
      steps: [{ step_number: 1, webhook_url: `${receiver.url}/hook`, webhook_headers: { 'x-a': 'b' }, webhook_body: { n: '{{n}}' } }],
      variables: [{ name: 'ok', location: 'body.ok', stepId: 1 }],
      predefinedVariables: [{ name: 'p', value: 'q' }],
    }),
    flowWithSecretShape,
  );
  expect(created.secret).toMatch(/^whsec_/);
  expectShape(await call('GET', '/v1/webhooks'), list(flowShape));
  const templates = expectShape(await call('GET', '/v1/integrations/templates'), list(flowShape));
  expectShape(await call('POST', `/v1/integrations/templates/${templates[0].id}/use`, {}), flowWithSecretShape);
  expectShape(await call('POST', `/v1/webhooks/${created.id}/rotate-secret`), flowWithSecretShape);

  const triggered = expectShape(await call('POST', `/v1/webhooks/${created.id}/trigger`, { variables: { n: 1 } }), executionDetailShape);
  const done = await waitFor('the execution to finish', async () => {
    const detail = expectShape(await call('GET', `/v1/webhooks/${created.id}/executions/${triggered.id}`), executionDetailShape);
    return detail.status === 'success' ? detail : undefined;
  });
  expect(done).toMatchObject({ steps: [{ status: 'success', response: { status: 200 } }] });
  expectShape(await call('GET', `/v1/webhooks/${created.id}/executions`), z.strictObject({ items: list(executionItemShape), next_cursor: z.string().nullable() }));
  expectShape(
    await call('GET', `/v1/webhooks/${created.id}`),
    flowShape.refine((f) => Array.isArray(f.executions) && f.executions.length === 1),
  );
});

it('failures: the error envelope, and the documented quirks', async () => {
  const missing = await call('GET', '/v1/calls/00000000-0000-4000-8000-000000000000');
  expect(missing.status).toBe(404);
  errorEnvelopeShape.parse(missing.body);
  const invalid = await call('POST', '/v1/ai-agent', { name: '', responsiveness: 101 });
  expect(invalid.status).toBe(400);
  expect(errorEnvelopeShape.parse(invalid.body).data).toHaveLength(2);
  const refused = await call('POST', '/v1/calls/make-call', { ai_agent_id: a.agent.id, call_from: '+14155550100', call_to: '+14155550101' });
  expect(refused.status).toBe(400);
  quirkErrorShape.parse(refused.body);
  const legacy = await call('POST', '/compaign/v1/campaign/update/00000000-0000-4000-8000-000000000000', { name: 'x' });
  expect(legacy.status).toBe(200);
  quirkErrorShape.parse(legacy.body);
  const unauthorized = await t.request('GET', '/v1/calls');
  expect(unauthorized.status).toBe(401);
  errorEnvelopeShape.parse(unauthorized.body);
});
