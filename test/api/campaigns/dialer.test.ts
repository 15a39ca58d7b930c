import { Receiver } from '../flows/support';
import { gqlData, subscribe, wsClient } from '../graphql/graphql-client';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { ManualClock } from '../../support/clock';
import { type CampaignApi, campaignApi, DIALER_ENV, statsWhen } from './support';

// Monday 2026-11-23, 10:00 in New York (EST, UTC-5).
const clock = new ManualClock(new Date('2026-11-23T15:00:00Z'));
let t: TestApp;
let a: Tenant;
let api: CampaignApi;
let receiver: Receiver;
let unique = 0;

/** Fresh numbers for each test, so that one test's contacts never match another's campaign. */
const numbers = (count: number, ending = '') =>
  Array.from({ length: count }, () => {
    unique += 1;
    return `+1415${200 + (unique % 700)}${ending || 1000 + (unique % 9000)}`;
  });

/** A campaign over fresh contacts (tagged so that only they match), activated. */
async function running(count: number, fields: Record<string, unknown> = {}, ending = '', contactFields: Record<string, unknown> = {}) {
  const tag = `t${unique}-${Math.random().toString(36).slice(2, 8)}`;
  const contacts = await api.contacts(numbers(count, ending), { tag_name: tag, ...contactFields });
  const campaign = await api.campaign({ contacts_list_tags: [[tag]], status: 'active', ...fields });
  return { campaign, contacts };
}

beforeAll(async () => {
  receiver = await Receiver.start();
  t = await startTestApp({ ...DIALER_ENV, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, { clock });
  a = await tenant(t, 'A');
  api = campaignApi(t, a);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

// The dialer's rules (the calling window, retries and their tiers, the concurrency cap,
// skipped contacts, contact selection, pausing, completion) are checked one tick at a time at
// the service level: test/service/dialer.test.ts and test/service/dialer-window.test.ts. Here,
// what the API adds: a campaign run end to end through the job workers and the simulated
// provider, the calls and stats as REST and GraphQL answer them, the campaign webhook.

describe('each call of a campaign', () => {
  it('is placed with the agent, the outbound number, the contact and its mapped variables', async () => {
    const { campaign, contacts } = await running(
      1,
      { agent_variables_contact_metadata_mapping: { firstname: 'firstname', plan: 'metadata.plan', missing: 'metadata.none', since: 'created_at', gone: 'deleted_at' } },
      '',
      {
        firstname: 'Grace',
        metadata: { plan: 'gold' },
      },
    );
    await statsWhen(api, campaign.id, 'the contact to be picked up', (s) => s.picked_up === 1);
    const [call] = await api.calls(campaign.id);
    expect(call).toMatchObject({
      campaign_id: campaign.id,
      contact_id: contacts[0].id,
      ai_agent_id: a.agent.id,
      call_from: a.number.phone_number,
      call_to: contacts[0].phone_number,
      is_test: false,
      call_status: 'completed',
    });
    // Read from the contact's REST shape: its dates as the API writes them.
    expect(call.agent_dynamic_variables).toHaveLength(3);
    expect(call.agent_dynamic_variables).toEqual(
      expect.arrayContaining([
        { name: 'firstname', value: 'Grace' },
        { name: 'plan', value: 'gold' },
        { name: 'since', value: contacts[0].created_at },
      ]),
    );
    expect(call.transcript).toContain('Hello Grace');
  });
});

describe('the campaign webhook', () => {
  it('is triggered once per ended call with variables mapped from the call, contact and campaign', async () => {
    const flow = okData(
      await t.request('POST', '/v1/webhooks', {
        token: a.key,
        body: {
          name: 'After call',
          steps: [
            { step_number: 1, webhook_url: `${receiver.url}/after-call`, webhook_method: 'POST', webhook_body: { status: '{{status}}', who: '{{who}}', campaign: '{{campaign}}', plan: '{{plan}}' } },
          ],
        },
      }),
    );
    const { campaign } = await running(
      2,
      {
        webhook_id: flow.id,
        webhook_mapping_variables: { status: 'call_status', who: 'firstname', campaign: 'name', plan: 'metadata.plan' },
        webhook_mapping_variables_sources: { status: 'call', who: 'contact', campaign: 'campaign', plan: 'contact' },
      },
      '',
      { firstname: 'Lin', metadata: { plan: 'pro' } },
    );
    await waitFor('both deliveries', async () => (receiver.at('/after-call').length >= 2 ? true : undefined));
    await statsWhen(api, campaign.id, 'both contacts to settle', (s) => s.settled === 2);
    const bodies = receiver.at('/after-call').map((r) => JSON.parse(r.body));
    expect(bodies).toEqual([
      { status: 'completed', who: 'Lin', campaign: 'Dialer', plan: 'pro' },
      { status: 'completed', who: 'Lin', campaign: 'Dialer', plan: 'pro' },
    ]);
    const executions = okData(await t.request('GET', `/v1/webhooks/${flow.id}/executions`, { token: a.key }));
    expect(executions.items).toHaveLength(2);
  });

  it('reads the REST shape of each record, a path naming its source included, and logs the paths that lead nowhere', async () => {
    const flow = okData(
      await t.request('POST', '/v1/webhooks', {
        token: a.key,
        body: {
          name: 'Shapes',
          steps: [
            {
              step_number: 1,
              webhook_url: `${receiver.url}/shapes`,
              webhook_method: 'POST',
              webhook_body: {
                call: '{{call}}',
                who: '{{who}}',
                ended: '{{ended}}',
                since: '{{since}}',
                zone: '{{zone}}',
                attempt: '{{attempt}}',
                dispatched: '{{dispatched}}',
                selected: '{{selected}}',
                usable: '{{usable}}',
              },
            },
          ],
        },
      }),
    );
    // Internal columns of calls (campaign_attempt, dispatched_at) and campaigns (selected_at,
    // and agent_usable, which the dialer computes) are not part of any REST shape.
    const { campaign, contacts } = await running(
      1,
      {
        webhook_id: flow.id,
        webhook_mapping_variables: {
          call: 'call.id',
          who: 'contact.firstname',
          ended: 'ended_at',
          since: 'contact.created_at',
          zone: 'campaign.time_zone',
          attempt: 'campaign_attempt',
          dispatched: 'call.dispatched_at',
          selected: 'selected_at',
          usable: 'campaign.agent_usable',
        },
        webhook_mapping_variables_sources: {
          call: 'call',
          who: 'contact',
          ended: 'call',
          since: 'contact',
          zone: 'campaign',
          attempt: 'call',
          dispatched: 'call',
          selected: 'campaign',
          usable: 'campaign',
        },
      },
      '',
      { firstname: 'Mae' },
    );
    await waitFor('the delivery', async () => (receiver.at('/shapes').length >= 1 ? true : undefined));
    const sent = JSON.parse(receiver.at('/shapes')[0].body);
    const call = okData(await t.request('GET', `/v1/calls/${sent.call}`, { token: a.key }));
    const contact = okData(await t.request('GET', `/v1/contacts/${contacts[0].id}`, { token: a.key }));
    expect(call.campaign_id).toBe(campaign.id);
    expect(sent).toEqual({ call: call.id, who: 'Mae', ended: call.ended_at, since: contact.created_at, zone: 'America/New_York', attempt: '', dispatched: '', selected: '', usable: '' });
    expect(sent.ended).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const [item] = okData(await t.request('GET', `/v1/webhooks/${flow.id}/executions`, { token: a.key })).items;
    const execution = okData(await t.request('GET', `/v1/webhooks/${flow.id}/executions/${item.id}`, { token: a.key }));
    expect(Object.keys(execution.variables).sort()).toEqual(['call', 'ended', 'since', 'who', 'zone']);
    expect(execution.steps[0]).toMatchObject({ status: 'success', unresolved_variables: ['attempt', 'dispatched', 'selected', 'usable'] });
  });
});

describe('progress, live and in GraphQL', () => {
  it('reaches callStatusChanged(campaignId) subscribers, up to completed and 100 percent', async () => {
    const client = wsClient(t, a.key);
    const campaign = await api.campaign({ contacts_list_tags: [`live-${Date.now()}`] });
    await api.contacts(numbers(2), { campaign_id: campaign.id });
    const sub = await subscribe(client, `subscription($id: ID) { callStatusChanged(campaignId: $id) { callStatus campaign { status callProgress stats { settled pickedUp } } } }`, { id: campaign.id });
    await api.update(campaign.id, { status: 'active' });
    const progress: number[] = [];
    for (;;) {
      const event = (await sub.next()).callStatusChanged;
      progress.push(event.campaign.callProgress);
      if (event.campaign.status === 'completed') {
        expect(event.campaign).toMatchObject({ callProgress: 100, stats: { settled: 2, pickedUp: 2 } });
        break;
      }
    }
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    sub.close();
    await client.dispose();
  });

  it('answers Campaign.stats for one campaign and for a list, and refuses another company’s stats', async () => {
    const { campaign } = await running(2);
    await statsWhen(api, campaign.id, 'the contacts to settle', (s) => s.settled === 2);
    const one = await gqlData(
      t,
      `query($id: ID!) { campaign(id: $id) { stats { contactsSelected settled pickedUp failed inProgress queued skipped skippedReasons nextAttemptAt } } }`,
      { id: campaign.id },
      a.key,
    );
    expect(one.campaign.stats).toEqual({ contactsSelected: 2, settled: 2, pickedUp: 2, failed: 0, inProgress: 0, queued: 0, skipped: 0, skippedReasons: {}, nextAttemptAt: null });
    const list = await gqlData(t, `{ campaigns(first: 100) { edges { node { id stats { contactsSelected } } } } }`, {}, a.key);
    expect(list.campaigns.edges.find((e: any) => e.node.id === campaign.id).node.stats.contactsSelected).toBe(2);
    const b = await tenant(t, 'B', '+14155552672');
    const foreign = await t.request('GET', `/v1/campaigns/by-id/${campaign.id}/stats`, { token: b.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ status: 'error', message: 'Not found', data: '' });
  });
});
