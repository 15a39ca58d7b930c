import { Contact } from '../../../src/entities';
import { serializeContact } from '../../../src/rest/contact.serializer';
import { toContactView } from '../../../src/services/contacts/contact.contract';
import { okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

/**
 * The legacy listing (interface 4.3) answers every contact in one array, however many: it is
 * written as it is read, a keyset page at a time, so the process's memory does not grow
 * with the count. What the bytes must be: the envelope around the whole list serialized at
 * once, as it was before it streamed.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const list = (token = a.key) => t.request('GET', '/compaign/v1/contact', { token });

/** The listing as one serializer call over every contact read at once (the answer before it streamed). */
async function wholeList(companyId: string): Promise<string> {
  const contacts = await t.app.orm.em.fork().find(Contact, { company: companyId, deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  return JSON.stringify({ status: 'ok', message: 'ok', data: contacts.map(toContactView).map(serializeContact) });
}

const numbers = (from: number, count: number) => Array.from({ length: count }, (_, i) => `+1415${String(from + i).padStart(7, '0')}`);

describe('GET /compaign/v1/contact, streamed', () => {
  it('answers the same bytes as the whole list serialized at once', async () => {
    const made = okData(
      await t.request('POST', '/v1/contacts', {
        token: a.key,
        body: [
          { firstname: 'Zoë "Z"', lastname: 'Łukasz\n', phone_number: '+14155550101', metadata: { plan: 'gold', nested: { a: [1, null, 'x'] } }, tag_name: 'vip', notes: '</script>' },
          { phone_number: '+442079460958', source_name: 'csv', category_name: 'lead' },
          { firstname: 'Doomed', phone_number: '+14155550102' },
        ],
      }),
    );
    okData(await t.request('DELETE', `/v1/contacts/${made[2].id}`, { token: a.key }));
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(await wholeList(a.companyId));
    // Newest first (the order is the serializer's above); the deleted contact is not listed.
    const ids = okData<any[]>(res).map((c) => c.id);
    expect(ids.at(-1)).toBe(a.contact.id);
    expect(ids.slice(0, 2).sort()).toEqual([made[0].id, made[1].id].sort());
    expect(okData<any[]>(await list(b.key)).map((c) => c.id)).toEqual([b.contact.id]);
  });

  it('lists 3,000 contacts reading them a page of 1,000 at a time, never all at once', async () => {
    for (const start of [0, 1_500]) {
      okData(await t.request('POST', '/v1/contacts', { token: b.key, body: numbers(3_000_000 + start, 1_500).map((phone_number, i) => ({ phone_number, firstname: `N${start + i}` })) }));
    }
    const reads: string[] = [];
    const stop = t.statements.listen((sql) => {
      if (/\bfrom "contacts"/i.test(sql)) reads.push(sql);
    });
    const res = await list(b.key).finally(stop);
    expect(res.status).toBe(200);
    const listed = okData<any[]>(res);
    expect(listed).toHaveLength(3_001);
    expect(new Set(listed.map((c) => c.id)).size).toBe(3_001);
    expect(res.text).toBe(await wholeList(b.companyId));
    // 3,001 contacts (those of one request share created_at's milliseconds by the hundred; the
    // id orders them): 4 pages of at most 1,000, each a limited read after the last row of
    // the one before (a row comparison, which starts the index at that row rather than
    // filtering every newer one).
    expect(reads).toHaveLength(4);
    for (const sql of reads) expect(sql).toMatch(/\blimit \$\d+$/i);
    for (const sql of reads.slice(1)) expect(sql).toMatch(/\(created_at, id\) < \(/);
  });
});
