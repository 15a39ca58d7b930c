import { ManualClock } from '../support/clock';
import { startTestServices, type TestServices } from '../support/services';

// The times the services write into records come from their clock (the one `startApp` is
// given; the system's in production), as the engines' do: soft deletions, a CSV import's
// updates, a flow execution's creation, a make-call's call, a do-not-call entry.

const NOW = new Date('2026-03-01T09:30:00.000Z');
let s: TestServices;
beforeAll(async () => {
  s = await startTestServices({}, { clock: new ManualClock(NOW) });
});
afterAll(() => s.close());

/** A column of one row, read straight from its table. */
async function stored(table: string, id: string, column: string): Promise<Date> {
  const [row] = await s.orm.em.fork().execute<{ at: string }[]>(`SELECT ${column} AS at FROM ${table} WHERE id = ?`, [id]);
  return new Date(row.at);
}

describe("the services' clock", () => {
  it('stamps the soft deletion of an agent, a flow, a campaign and a contact', async () => {
    const { companyId } = await s.company();
    const caller = () => s.caller(companyId);
    const agent = await s.services.agents.create(caller(), { name: 'A', prompt: 'Hi' });
    const flow = await s.services.webhooks.create(caller(), { name: 'F', steps: [{ stepNumber: 1, webhookUrl: 'https://example.com/hook' }] });
    const campaign = await s.services.campaigns.create(caller(), { name: 'C' });
    const contact = (await s.services.contacts.create(caller(), { firstname: 'Ada', phoneNumber: '+14155550101' })) as { id: string };
    await s.services.agents.delete(caller(), agent.id);
    await s.services.webhooks.delete(caller(), flow.id);
    await s.services.campaigns.delete(caller(), campaign.id);
    await s.services.contacts.delete(caller(), contact.id);
    expect(await stored('ai_agents', agent.id, 'deleted_at')).toEqual(NOW);
    expect(await stored('webhook_flows', flow.id, 'deleted_at')).toEqual(NOW);
    expect(await stored('campaigns', campaign.id, 'deleted_at')).toEqual(NOW);
    expect(await stored('contacts', contact.id, 'deleted_at')).toEqual(NOW);
  });

  it('stamps a do-not-call entry', async () => {
    const { companyId } = await s.company();
    const [entry] = await s.services.doNotCall.add(s.caller(companyId), { numbers: ['+14155550104'] });
    expect(entry.createdAt).toEqual(NOW);
  });

  it('stamps the call make-call stores', async () => {
    const { companyId } = await s.company();
    const { id: aiAgentId } = await s.services.agents.create(s.caller(companyId), { name: 'A' });
    await s.services.phoneNumbers.create(s.caller(companyId), { phoneNumber: '+14155552671' });
    const call = await s.services.calls.makeCall(s.caller(companyId), { aiAgentId, callFrom: '+14155552671', callTo: '+14155550103' });
    expect(call.createdAt).toEqual(NOW);
    expect(await stored('calls', call.id, 'created_at')).toEqual(NOW);
  });

  it("stamps a CSV import's updates and a flow execution's creation", async () => {
    const { companyId } = await s.company();
    const contact = (await s.services.contacts.create(s.caller(companyId), { firstname: 'Ada', phoneNumber: '+14155550102' })) as { id: string };
    const result = await s.services.contacts.importCsv(s.caller(companyId), { onDuplicate: 'update' }, ['phone_number,firstname\n+14155550102,Grace\n']);
    expect(result).toMatchObject({ imported: 0, updated: 1 });
    expect(await stored('contacts', contact.id, 'updated_at')).toEqual(NOW);

    const flow = await s.services.webhooks.create(s.caller(companyId), { name: 'F', steps: [{ stepNumber: 1, webhookUrl: 'https://example.com/hook' }] });
    const execution = await s.services.flows.trigger(s.caller(companyId), flow.id, { variables: {} });
    expect(await stored('webhook_executions', execution.id, 'created_at')).toEqual(NOW);
  });
});
