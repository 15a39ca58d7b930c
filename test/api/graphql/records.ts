import { Call, WebhookExecution } from '../../../src/entities';
import type { CallStatus } from '../../../src/entities/call.entity';
import type { Tenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

/**
 * Records no operation creates yet (campaign calls come from the dialer, executions from
 * the flow runner), written straight through the app's ORM; each batch is newer than the
 * records before it, one millisecond apart.
 */
export async function insertCalls(
  t: TestApp,
  tenant: Tenant,
  count: number,
  fields: { campaign?: string | null; contact?: string | null; callStatus?: CallStatus; workspaceId?: string } = {},
): Promise<Call[]> {
  const em = t.app.orm.em.fork();
  const calls = Array.from({ length: count }, (_, i) =>
    em.create(Call, {
      company: tenant.companyId,
      aiAgent: tenant.agent.id,
      campaign: fields.campaign === undefined ? tenant.campaign.id : fields.campaign,
      contact: fields.contact === undefined ? tenant.contact.id : fields.contact,
      callProvider: 'simulated',
      callFrom: '+14155552671',
      callTo: '+14155550199',
      priceUnit: 'USD',
      callStatus: fields.callStatus ?? 'completed',
      workspaceId: fields.workspaceId ?? 'default',
      createdAt: new Date(Date.now() + i),
    }),
  );
  await em.flush();
  return calls;
}

export async function insertExecutions(t: TestApp, tenant: Tenant, count: number, flowId = tenant.flow.id): Promise<WebhookExecution[]> {
  const em = t.app.orm.em.fork();
  const executions = Array.from({ length: count }, (_, i) => em.create(WebhookExecution, { company: tenant.companyId, flow: flowId, createdAt: new Date(Date.now() + i) }));
  await em.flush();
  return executions;
}
