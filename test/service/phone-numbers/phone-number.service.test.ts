import { ConflictError, NotFoundError } from '../../../src/services/shared/errors';
import { startTestServices, type TestServices } from '../../support/services';

// Phone numbers at the service: one company's at a time, their answering agent the
// company's own (inbound routing by number: test/api/calls/inbound*.test.ts).

let s: TestServices;
beforeAll(async () => {
  s = await startTestServices();
});
afterAll(() => s.close());

describe('phone numbers', () => {
  it('stores a number in E.164 with its country code; adding it twice is a conflict', async () => {
    const { companyId } = await s.company();
    const added = await s.services.phoneNumbers.create(s.caller(companyId), { phoneNumber: '(415) 555-3001', label: 'main' });
    expect(added).toMatchObject({ phoneNumber: '+14155553001', label: 'main' });
    await expect(s.services.phoneNumbers.create(s.caller(companyId), { phoneNumber: '+14155553001' })).rejects.toEqual(new ConflictError('Phone number already added'));
  });

  it('belongs to one company at a time: another adding it is told it is in use, and cannot change or remove it', async () => {
    const a = await s.company();
    const b = await s.company();
    const held = await s.services.phoneNumbers.create(s.caller(a.companyId), { phoneNumber: '+14155553002' });
    await expect(s.services.phoneNumbers.create(s.caller(b.companyId), { phoneNumber: '+14155553002' })).rejects.toEqual(new ConflictError('Phone number is in use'));
    await expect(s.services.phoneNumbers.update(s.caller(b.companyId), held.id, { label: 'mine' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.services.phoneNumbers.delete(s.caller(b.companyId), held.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await s.services.phoneNumbers.list(s.caller(b.companyId))).toEqual([]);
    await s.services.phoneNumbers.delete(s.caller(a.companyId), held.id);
    expect((await s.services.phoneNumbers.create(s.caller(b.companyId), { phoneNumber: '+14155553002' })).phoneNumber).toBe('+14155553002');
  });

  it("answers with the company's own agent only", async () => {
    const a = await s.company();
    const b = await s.company();
    const number = await s.services.phoneNumbers.create(s.caller(a.companyId), { phoneNumber: '+14155553003' });
    const own = await s.services.agents.create(s.caller(a.companyId), { name: 'Front desk', prompt: 'Answer' });
    const foreign = await s.services.agents.create(s.caller(b.companyId), { name: 'Theirs', prompt: 'Answer' });
    await expect(s.services.phoneNumbers.update(s.caller(a.companyId), number.id, { inboundAgentId: foreign.id })).rejects.toBeInstanceOf(NotFoundError);
    expect((await s.services.phoneNumbers.update(s.caller(a.companyId), number.id, { inboundAgentId: own.id })).inboundAgentId).toBe(own.id);
    expect((await s.services.phoneNumbers.update(s.caller(a.companyId), number.id, { inboundAgentId: null })).inboundAgentId).toBeNull();
  });
});
