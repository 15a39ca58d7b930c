import type { Config } from '../config';
import type { Logger } from '../logger';
import { AgentService } from './agent.service';
import { AuthService } from './auth.service';
import { CallService } from './call.service';
import { CampaignService } from './campaign.service';
import type { Clock } from './clock';
import { ContactService } from './contact.service';
import { loggedExecutionEvents } from './flows/execution-events';
import { FlowRunner } from './flows/flow-runner';
import { OutboundHttp } from './flows/outbound-http';
import { StepExecutor } from './flows/step-executor';
import type { JobQueue } from './jobs/job-queue';
import { PhoneParser } from './phone';
import { PhoneNumberService } from './phone-number.service';
import { WebhookService } from './webhook.service';
import { WebhookExecutionService } from './webhook-execution.service';

export type Services = ReturnType<typeof createServices>;

/** What the services run on besides the database: durable jobs, time, the log. */
export interface Runtime {
  jobs: JobQueue;
  clock: Clock;
  logger: Logger;
}

/** Wires the services together; each gets only what it needs. `close()` releases their connections. */
export function createServices(config: Config, { jobs, clock, logger }: Runtime) {
  const phones = new PhoneParser(config.defaultPhoneRegion);
  const outbound = new OutboundHttp(config.webhooks);
  const executor = new StepExecutor(outbound, clock, config.webhooks.retryBackoffMs);
  const agents = new AgentService();
  const phoneNumbers = new PhoneNumberService(phones);
  return {
    auth: new AuthService(config.jwtSecret),
    agents,
    phoneNumbers,
    calls: new CallService(phones, agents, phoneNumbers, { provider: config.telephonyProvider, priceUnit: config.priceUnit }),
    campaigns: new CampaignService(),
    contacts: new ContactService(phones),
    webhooks: new WebhookService(),
    executions: new WebhookExecutionService(),
    flows: new FlowRunner({ jobs, clock, executor, events: loggedExecutionEvents(logger) }),
    close: () => outbound.close(),
  };
}
