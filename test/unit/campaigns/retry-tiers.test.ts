import { dynamicVariables, webhookVariables } from '../../../src/services/campaigns/contact-mapping';
import { delayBefore, totalAttempts } from '../../../src/services/campaigns/retry-tiers';

describe('retry tiers', () => {
  const tiers = { attempts: [2, 3], delays: [10, 1], units: ['minutes', 'days'] };

  it('allow the sum of the tiers, or one attempt without tiers', () => {
    expect(totalAttempts(tiers)).toBe(5);
    expect(totalAttempts({ attempts: [], delays: [], units: [] })).toBe(1);
    expect(delayBefore({ attempts: [], delays: [], units: [] }, 2)).toBeNull();
  });

  it('wait the delay of the tier the next attempt belongs to, in order', () => {
    expect(delayBefore(tiers, 2)).toBe(10 * 60_000);
    expect(delayBefore(tiers, 3)).toBe(86_400_000);
    expect(delayBefore(tiers, 5)).toBe(86_400_000);
    expect(delayBefore(tiers, 6)).toBeNull();
    expect(delayBefore({ attempts: [3], delays: [30], units: ['seconds'] }, 3)).toBe(30_000);
    expect(delayBefore({ attempts: [1, 1], delays: [5, 2], units: ['seconds', 'hours'] }, 2)).toBe(7_200_000);
  });
});

describe('contact mapping', () => {
  const contact = { firstname: 'Ada', lastname: '', metadata: { plan: 'gold', visits: 3, tags: ['a'] }, last_call_at: null };

  it('builds dynamic variables from paths into the contact, leaving out missing and empty values', () => {
    const vars = dynamicVariables(
      { first_name: 'firstname', plan: 'metadata.plan', visits: 'metadata.visits', tags: 'metadata.tags', last: 'lastname', nope: 'metadata.x.y', when: 'last_call_at', bad: 3 },
      contact,
    );
    expect(vars).toEqual([
      { name: 'first_name', value: 'Ada' },
      { name: 'plan', value: 'gold' },
      { name: 'visits', value: '3' },
      { name: 'tags', value: '["a"]' },
    ]);
  });

  it('never reads inherited properties', () => {
    expect(dynamicVariables({ x: 'constructor', y: 'metadata.__proto__' }, contact)).toEqual([]);
  });

  it('builds webhook variables from the named sources, or call, contact, campaign in that order', () => {
    const { variables, unresolved } = webhookVariables(
      { status: 'call_status', who: 'firstname', campaign: 'name', outcome: 'interested', fallback: 'firstname' },
      { status: 'call', who: 'contact', campaign: 'campaign', outcome: 'agent_post_call_outcomes', fallback: 'elsewhere' },
      { call: { call_status: 'busy' }, contact, campaign: { name: 'Spring' }, agent_post_call_outcomes: { interested: true } },
    );
    expect(variables).toEqual({ status: 'busy', who: 'Ada', campaign: 'Spring', outcome: true, fallback: 'Ada' });
    expect(unresolved).toEqual([]);
  });

  it("reads a path that starts with its source's name as the same path without it", () => {
    const records = { call: { call_status: 'busy' }, contact, campaign: { name: 'Spring' }, agent_post_call_outcomes: { agent_post_call_outcomes: 'own field', score: 4 } };
    const { variables, unresolved } = webhookVariables(
      { who: 'contact.firstname', plan: 'contact.metadata.plan', status: 'call.call_status', named: 'contact.firstname', score: 'agent_post_call_outcomes.score', own: 'agent_post_call_outcomes' },
      { who: 'contact', plan: 'contact', status: 'call', score: 'agent_post_call_outcomes', own: 'agent_post_call_outcomes' },
      records,
    );
    // `named` has no source: its prefix picks the contact among call, contact, campaign.
    expect(variables).toEqual({ who: 'Ada', plan: 'gold', status: 'busy', named: 'Ada', score: 4, own: 'own field' });
    expect(unresolved).toEqual([]);
  });

  it('answers the variables whose path leads nowhere, and leaves them out', () => {
    const { variables, unresolved } = webhookVariables(
      { who: 'contact.nickname', when: 'last_call_at', other: 'campaign.firstname', proto: 'constructor' },
      { who: 'contact', other: 'contact' },
      { call: {}, contact, campaign: {}, agent_post_call_outcomes: {} },
    );
    expect(variables).toEqual({ when: null });
    expect(unresolved).toEqual([
      { name: 'who', path: 'contact.nickname' },
      { name: 'other', path: 'campaign.firstname' },
      { name: 'proto', path: 'constructor' },
    ]);
  });
});
