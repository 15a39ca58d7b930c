import type { MikroORM } from '@mikro-orm/postgresql';
import Router from '@koa/router';
import type { Services } from '../services';
import { agentRoutes } from './agent.routes';
import { callRoutes } from './call.routes';
import { campaignRoutes } from './campaign.routes';
import { contactRoutes } from './contact.routes';
import { endpointKit, type RestState } from './middleware';
import { phoneNumberRoutes } from './phone-number.routes';
import { telephonyRoutes } from './telephony.routes';
import { webhookRoutes } from './webhook.routes';
import { webhookExecutionRoutes } from './webhook-execution.routes';

/** Every REST route: the documented surface (interface section 4) and the management operations. */
export function restRouter(orm: MikroORM, services: Services, publicBaseUrl: string): Router<RestState> {
  const endpoint = endpointKit(orm, services.auth, services.rateLimits);
  const router = new Router<RestState>();
  for (const child of [
    callRoutes(endpoint, services.calls),
    campaignRoutes(endpoint, services.campaigns),
    contactRoutes(endpoint, services.contacts),
    agentRoutes(endpoint, services.agents),
    phoneNumberRoutes(endpoint, services.phoneNumbers),
    webhookRoutes(endpoint, services.webhooks),
    telephonyRoutes(services.lifecycle, publicBaseUrl),
    webhookExecutionRoutes(endpoint, services.flows, services.executions),
  ]) {
    router.use(child.routes());
  }
  return router;
}
