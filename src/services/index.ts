import type { Config } from '../config';
import { AgentService } from './agent.service';
import { AuthService } from './auth.service';
import { CallService } from './call.service';
import { CampaignService } from './campaign.service';
import { ContactService } from './contact.service';
import type { EventPublisher } from './events';
import { PhoneParser } from './phone';
import { PhoneNumberService } from './phone-number.service';
import { WebhookService } from './webhook.service';

export type Services = ReturnType<typeof createServices>;

/**
 * Wires the services together; each gets only what it needs. `events` is where services
 * publish their changes, after commit, for live subscribers on every replica.
 */
export function createServices(config: Config, events: EventPublisher) {
  const phones = new PhoneParser(config.defaultPhoneRegion);
  const agents = new AgentService();
  const phoneNumbers = new PhoneNumberService(phones);
  return {
    auth: new AuthService(config.jwtSecret),
    agents,
    phoneNumbers,
    calls: new CallService(phones, agents, phoneNumbers, { provider: config.telephonyProvider, priceUnit: config.priceUnit }, events),
    campaigns: new CampaignService(),
    contacts: new ContactService(phones),
    webhooks: new WebhookService(),
  };
}
