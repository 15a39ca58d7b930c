import type { MikroORM } from '@mikro-orm/postgresql';
import Router from '@koa/router';
import type { Services } from '../services';
import type { HealthService } from '../services/platform/health.service';
import { agentRoutes } from './agent.routes';
import { agentTestRoutes } from './agent-test.routes';
import { agentVersionRoutes } from './agent-version.routes';
import { callRoutes } from './call.routes';
import { campaignRoutes } from './campaign.routes';
import { contactRoutes } from './contact.routes';
import { doNotCallRoutes } from './do-not-call.routes';
import { healthRoutes } from './health.routes';
import { idempotent } from './idempotency';
import { endpointKit, type RestState } from './middleware';
import { RestApi } from './openapi';
import { openApiRoutes } from './openapi.routes';
import { phoneNumberRoutes } from './phone-number.routes';
import { ROUTER_OPTIONS } from './routing';
import { telephonyRoutes } from './telephony.routes';
import { webhookRoutes } from './webhook.routes';
import { webhookExecutionRoutes } from './webhook-execution.routes';

export interface RestOptions {
  /** Public URL of this service (provider callbacks are signed over it). */
  publicBaseUrl: string;
  health: HealthService;
}

/**
 * Every REST route: the documented surface (interface section 4), the management operations,
 * the provider callbacks, the probes, and /openapi.json describing them all.
 */
export function restRouter(orm: MikroORM, services: Services, options: RestOptions): Router<RestState> {
  const api = new RestApi(endpointKit(orm, services.auth, services.rateLimits), idempotent(services.idempotency));
  const router = new Router<RestState>(ROUTER_OPTIONS);
  for (const child of [
    callRoutes(api, services.calls, services.inbound, services.recordings),
    campaignRoutes(api, services.campaigns),
    contactRoutes(api, services.contacts),
    agentRoutes(api, services.agents, services.playground),
    agentTestRoutes(api, services.scenarios, services.testRuns),
    agentVersionRoutes(api, services.agentVersions),
    phoneNumberRoutes(api, services.phoneNumbers),
    doNotCallRoutes(api, services.doNotCall),
    webhookRoutes(api, services.webhooks),
    telephonyRoutes(api, services, options.publicBaseUrl),
    webhookExecutionRoutes(api, services.flows, services.executions),
    healthRoutes(api, options.health),
    openApiRoutes(api, options.publicBaseUrl),
  ]) {
    router.use(child.routes());
  }
  return router;
}
