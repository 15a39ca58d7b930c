import type { Services } from '../services';
import { AgentTestResolver } from './agent-test.resolver';
import { AiAgentResolver } from './ai-agent.resolver';
import { AnalyticsResolver } from './analytics.resolver';
import { ApiKeyResolver } from './api-key.resolver';
import { CallResolver } from './call.resolver';
import { CampaignResolver } from './campaign.resolver';
import { CampaignAudienceResolver } from './campaign-audience.resolver';
import { ContactResolver } from './contact.resolver';
import { DoNotCallResolver } from './do-not-call.resolver';
import { NodeResolver } from './node.resolver';
import { PhoneNumberResolver } from './phone-number.resolver';
import { WebhookExecutionResolver } from './webhook-execution.resolver';
import { WebhookResolver } from './webhook.resolver';

export const resolverClasses = [
  CallResolver,
  CampaignResolver,
  CampaignAudienceResolver,
  ContactResolver,
  AiAgentResolver,
  AgentTestResolver,
  PhoneNumberResolver,
  DoNotCallResolver,
  ApiKeyResolver,
  WebhookResolver,
  WebhookExecutionResolver,
  AnalyticsResolver,
  NodeResolver,
] as const;

/** Every resolver, each built with the one service it adapts (and the rate limits of its costly mutations). */
export function createResolvers(s: Services): object[] {
  return [
    new CallResolver(s.calls, s.rateLimits, s.idempotency, s.inbound),
    new CampaignResolver(s.campaigns),
    new CampaignAudienceResolver(),
    new ContactResolver(s.contacts),
    new AiAgentResolver(s.agents, s.agentVersions, s.playground, s.rateLimits),
    new AgentTestResolver(s.scenarios, s.testRuns, s.rateLimits),
    new PhoneNumberResolver(s.phoneNumbers),
    new DoNotCallResolver(s.doNotCall),
    new ApiKeyResolver(s.auth),
    new WebhookResolver(s.webhooks),
    new WebhookExecutionResolver(s.executions, s.flows, s.rateLimits, s.idempotency),
    new AnalyticsResolver(s.analytics),
    new NodeResolver(s),
  ];
}
