import { okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

/**
 * The contacts both companies hold for the audience tests, created in this order after each
 * company's fixture contact (Ada, its campaign's own): the dialer's order, oldest first. One
 * of each skip reason: inactive, on the do-not-call list, not local.
 */
export const AUDIENCE_CONTACTS = [
  { firstname: 'Vip', phone_number: '+14155550301', tag_name: 'vip' },
  { firstname: 'Asleep', phone_number: '+14155550302', tag_name: 'vip', status: 'inactive' },
  { firstname: 'Listed', phone_number: '+14155550303', tag_name: 'vip' },
  { firstname: 'Abroad', phone_number: '+442079460958', tag_name: 'vip' },
  { firstname: 'Other', phone_number: '+14155550304', tag_name: 'other' },
];

/** Two companies (`env` for the service), each with AUDIENCE_CONTACTS and `Listed`'s number on its do-not-call list. */
export async function audienceTenants(env: Record<string, string> = {}): Promise<{ t: TestApp; a: Tenant; b: Tenant }> {
  const tenants = await twoTenants(env);
  for (const token of [tenants.a.key, tenants.b.key]) {
    for (const body of AUDIENCE_CONTACTS) okData(await tenants.t.request('POST', '/v1/contacts', { token, body }));
    okData(await tenants.t.request('POST', '/v1/do-not-call', { token, body: { numbers: ['+14155550303'] } }));
  }
  return tenants;
}
