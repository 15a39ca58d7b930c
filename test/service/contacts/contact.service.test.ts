import { NotFoundError, ValidationError } from '../../../src/services/shared/errors';
import type { ContactView } from '../../../src/services/contacts/contact.contract';
import type { ContactCreateInput } from '../../../src/services/contacts/contact.input';
import { startTestServices, type TestServices } from '../../support/services';

// The contact rules at the service: numbers in E.164, imports all-or-nothing, the pages'
// filters and search, soft deletion, tenancy (the HTTP surface: test/api/rest/contacts*.ts).

let s: TestServices;
beforeAll(async () => {
  s = await startTestServices();
});
afterAll(() => s.close());

const create = async (companyId: string, input: ContactCreateInput) => (await s.services.contacts.create(s.caller(companyId), input)) as ContactView;
const pageOf = async (companyId: string, input: Record<string, unknown> = {}) => (await s.services.contacts.page(s.caller(companyId), input)).items.map((c) => c.firstname);

describe('contacts', () => {
  it('stores a number given in any format in E.164, and a search by its national form finds it', async () => {
    const { companyId } = await s.company();
    const ada = await create(companyId, { firstname: 'Ada', lastname: 'Lovelace', phoneNumber: '(415) 555-2671' });
    expect(ada.phoneNumber).toBe('+14155552671');
    expect(await pageOf(companyId, { search: '415.555.2671' })).toEqual(['Ada']);
    expect(await pageOf(companyId, { search: 'lovel ADA' })).toEqual(['Ada']);
    expect(await pageOf(companyId, { search: 'Grace' })).toEqual([]);
  });

  it('imports an array all or nothing, naming each bad row by its index', async () => {
    const { companyId } = await s.company();
    const rows = [
      { firstname: 'A', phoneNumber: '+14155550001' },
      { firstname: 'B', phoneNumber: 'call me' },
      { firstname: 'C', phoneNumber: '+14155550003', campaignId: 'not-an-id' },
    ];
    const refused = await s.services.contacts.create(s.caller(companyId), rows).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).fields.map((f) => f.field)).toEqual(['[1].phoneNumber', '[2].campaignId']);
    expect(await s.services.contacts.count(s.caller(companyId), {})).toBe(0);
  });

  it('pages newest first by status and tag, and counts what it pages', async () => {
    const { companyId } = await s.company();
    await create(companyId, { firstname: 'Old', phoneNumber: '+14155550011', tagName: 'vip' });
    await create(companyId, { firstname: 'Mid', phoneNumber: '+14155550012', status: 'inactive' });
    await create(companyId, { firstname: 'New', phoneNumber: '+14155550013', tagName: 'vip' });
    expect(await pageOf(companyId)).toEqual(['New', 'Mid', 'Old']);
    expect(await pageOf(companyId, { tagName: 'vip' })).toEqual(['New', 'Old']);
    expect(await pageOf(companyId, { status: 'inactive' })).toEqual(['Mid']);
    expect(await s.services.contacts.count(s.caller(companyId), { tagName: 'vip' })).toBe(2);
    const first = await s.services.contacts.page(s.caller(companyId), { limit: 2 });
    const rest = await s.services.contacts.page(s.caller(companyId), { limit: 2, cursor: first.nextCursor! });
    expect([...first.items, ...rest.items].map((c) => c.firstname)).toEqual(['New', 'Mid', 'Old']);
    expect(rest.nextCursor).toBeNull();
  });

  it('deletes softly: gone from pages, counts and reads by id, kept for the calls that name it', async () => {
    const { companyId } = await s.company();
    const gone = await create(companyId, { firstname: 'Gone', phoneNumber: '+14155550021' });
    await s.services.contacts.delete(s.caller(companyId), gone.id);
    expect(await pageOf(companyId)).toEqual([]);
    expect(await s.services.contacts.count(s.caller(companyId), {})).toBe(0);
    await expect(s.services.contacts.get(s.caller(companyId), gone.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await s.services.contacts.getMany(s.caller(companyId), [gone.id])).map((c) => c.firstname)).toEqual(['Gone']);
  });

  it("never reads, changes or counts another company's contacts", async () => {
    const a = await s.company();
    const b = await s.company();
    const theirs = await create(b.companyId, { firstname: 'Theirs', phoneNumber: '+14155550031' });
    await expect(s.services.contacts.get(s.caller(a.companyId), theirs.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.services.contacts.update(s.caller(a.companyId), theirs.id, { firstname: 'Mine' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.services.contacts.delete(s.caller(a.companyId), theirs.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await s.services.contacts.getMany(s.caller(a.companyId), [theirs.id])).toEqual([]);
    expect(await s.services.contacts.count(s.caller(a.companyId), {})).toBe(0);
    expect((await s.services.contacts.get(s.caller(b.companyId), theirs.id)).firstname).toBe('Theirs');
  });
});
