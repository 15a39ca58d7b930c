import { NotFoundError, ValidationError } from '../../../src/services/shared/errors';
import { startTestServices, type TestServices } from '../../support/services';

// The do-not-call list at the service (make-call's refusal of a listed number:
// test/api/rest/do-not-call.test.ts; the dialer's skip: test/service/dialer.test.ts).

let s: TestServices;
beforeAll(async () => {
  s = await startTestServices();
});
afterAll(() => s.close());

describe('the do-not-call list', () => {
  it('lists numbers in E.164 once, keeping the first reason, and answers them in the order given', async () => {
    const { companyId } = await s.company();
    const caller = () => s.caller(companyId);
    const first = await s.services.doNotCall.add(caller(), { numbers: ['(415) 555-0101', '+14155550102'], reason: 'asked' });
    expect(first.map((e) => [e.phoneNumber, e.reason])).toEqual([
      ['+14155550101', 'asked'],
      ['+14155550102', 'asked'],
    ]);
    const again = await s.services.doNotCall.add(caller(), { numbers: ['+14155550102', '415-555-0101', '+14155550103'], reason: 'complaint' });
    expect(again.map((e) => [e.phoneNumber, e.reason])).toEqual([
      ['+14155550102', 'asked'],
      ['+14155550101', 'asked'],
      ['+14155550103', 'complaint'],
    ]);
    expect(await s.services.doNotCall.count(caller())).toBe(3);
  });

  it('refuses a number it cannot read, naming it, and lists none of the batch', async () => {
    const { companyId } = await s.company();
    const refused = await s.services.doNotCall.add(s.caller(companyId), { numbers: ['+14155550104', 'call me'] }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).fields.map((f) => f.field)).toEqual(['numbers[1]']);
    expect(await s.services.doNotCall.count(s.caller(companyId))).toBe(0);
  });

  it("removes a number given in any format, and is each company's own", async () => {
    const a = await s.company();
    const b = await s.company();
    await s.services.doNotCall.add(s.caller(a.companyId), { numbers: ['+14155550105'] });
    await expect(s.services.doNotCall.remove(s.caller(b.companyId), '+14155550105')).rejects.toBeInstanceOf(NotFoundError);
    expect((await s.services.doNotCall.list(s.caller(b.companyId), {})).items).toEqual([]);
    expect((await s.services.doNotCall.remove(s.caller(a.companyId), '(415) 555-0105')).phoneNumber).toBe('+14155550105');
    expect(await s.services.doNotCall.count(s.caller(a.companyId))).toBe(0);
  });
});
