import type { EntityManager } from '@mikro-orm/postgresql';
import { Company } from '../../entities';
import type { Services } from '../index';
import { lockUntilCommit } from './advisory-lock.store';

export interface DemoSeed {
  companyId: string;
  apiKey: string;
}

/** Transaction advisory lock under which a replica looks for companies and seeds. */
const SEED_LOCK = 'switchboard:seed-demo';

/**
 * First-run experience: on an empty database, a demo company with an agent, a phone
 * number (with the simulated provider), a few contacts, a campaign and a flow, made through
 * the services themselves. Returns null when the database already has a company. Replicas
 * starting together on an empty database take turns under an advisory lock, so only the
 * first seeds and the others find its company (committed when they get the lock).
 */
export async function seedDemo(em: EntityManager, services: Services): Promise<DemoSeed | null> {
  return em.transactional(async (tx) => {
    await lockUntilCommit(tx, SEED_LOCK);
    if ((await tx.count(Company, {})) > 0) return null;
    return seedCompany(tx, services);
  });
}

async function seedCompany(em: EntityManager, services: Services): Promise<DemoSeed> {
  const { companyId, apiKey } = await services.auth.createCompany(em, { name: 'Demo Company' });
  const caller = { scope: { companyId, userId: null }, em };
  const agent = await services.agents.create(caller, {
    name: 'Demo appointment reminder',
    description: 'Calls contacts to confirm their appointment.',
    prompt: 'You are a friendly assistant calling {{firstname}} to confirm an appointment.',
  });
  // A carrier's account never holds the demo's fictional number: with one, the demo campaign
  // has no outbound number until the company adds one of the account's.
  const number = services.provider === services.simulated ? await services.phoneNumbers.create(caller, { phoneNumber: '+14155550100', label: 'Demo outbound line' }) : null;
  const flow = await services.webhooks.create(caller, {
    name: 'Demo: post call results',
    status: 'stopped',
    steps: [{ stepNumber: 1, webhookUrl: 'https://example.com/switchboard/calls', webhookMethod: 'POST', webhookBody: { call_id: '{{call_id}}', status: '{{call_status}}' } }],
  });
  const campaign = await services.campaigns.create(caller, {
    name: 'Demo reminder campaign',
    aiAgentId: agent.id,
    outboundPhoneNumberId: number?.id ?? null,
    webhookId: flow.id,
    timeZone: 'America/New_York',
    // Open all day, every day: the first run's "Activate" in the web console dials at once.
    callTimeOfDayFrom: '00:00:00',
    callTimeOfDayTo: '00:00:00',
    daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
    numberOfCallAttempts: [2],
    retryDelay: [30],
    retryDelayUnit: ['minutes'],
    agentVariablesContactMetadataMapping: { firstname: 'firstname' },
  });
  await services.contacts.create(caller, [
    { firstname: 'Ada', lastname: 'Lovelace', phoneNumber: '+14155552671', campaignId: campaign.id, tagName: 'vip' },
    { firstname: 'Alan', lastname: 'Turing', phoneNumber: '(415) 555-0101', campaignId: campaign.id },
    { firstname: 'Grace', lastname: 'Hopper', phoneNumber: '+44 20 7946 0958', sourceName: 'import' },
  ]);
  return { companyId, apiKey };
}
