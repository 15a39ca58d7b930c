import { NotFoundError, ValidationError } from '../../../src/services/shared/errors';
import { startTestServices, type TestServices } from '../../support/services';

// Agents at the service: their settings' rules, ownership, soft deletion (versions:
// test/api/rest/agent-versions.test.ts; the conversation: test/unit/conversation).

let s: TestServices;
beforeAll(async () => {
  s = await startTestServices();
});
afterAll(() => s.close());

describe('agents', () => {
  it('keeps the reminder window ordered, on create and on a partial update', async () => {
    const { companyId } = await s.company();
    const refused = await s.services.agents.create(s.caller(companyId), { name: 'A', prompt: 'Hi', reminderFrequencyFrom: 10, reminderFrequencyTo: 5 }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).fields).toEqual([{ field: 'reminderFrequencyFrom', message: 'Must not be greater than reminderFrequencyTo' }]);
    const agent = await s.services.agents.create(s.caller(companyId), { name: 'A', prompt: 'Hi', reminderFrequencyFrom: 5, reminderFrequencyTo: 10 });
    // The update names one bound; the rule reads it with the stored other.
    await expect(s.services.agents.update(s.caller(companyId), agent.id, { reminderFrequencyFrom: 11 })).rejects.toBeInstanceOf(ValidationError);
    expect((await s.services.agents.get(s.caller(companyId), agent.id)).reminderFrequencyFrom).toBe(5);
  });

  it("refuses a flow tool naming another company's flow", async () => {
    const a = await s.company();
    const b = await s.company();
    const theirs = await s.services.webhooks.create(s.caller(b.companyId), { name: 'Theirs', steps: [{ stepNumber: 1, webhookUrl: 'https://example.com/hook' }] });
    const agentFlow = { tools: [{ name: 'crm', description: 'Looks the caller up', webhook_id: theirs.id }] };
    const refused = await s.services.agents.create(s.caller(a.companyId), { name: 'A', prompt: 'Hi', agentFlow }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).fields).toEqual([{ field: 'agentFlow.tools[0].webhook_id', message: 'Must name a flow of your company' }]);
  });

  it("deletes softly, and never reads or changes another company's agent", async () => {
    const a = await s.company();
    const b = await s.company();
    const theirs = await s.services.agents.create(s.caller(b.companyId), { name: 'Theirs', prompt: 'Hi' });
    await expect(s.services.agents.get(s.caller(a.companyId), theirs.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.services.agents.update(s.caller(a.companyId), theirs.id, { name: 'Mine' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.services.agents.delete(s.caller(a.companyId), theirs.id)).rejects.toBeInstanceOf(NotFoundError);
    await s.services.agents.delete(s.caller(b.companyId), theirs.id);
    expect((await s.services.agents.list(s.caller(b.companyId), {})).map((x) => x.id)).not.toContain(theirs.id);
    await expect(s.services.agents.getOwn(s.caller(b.companyId), theirs.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
