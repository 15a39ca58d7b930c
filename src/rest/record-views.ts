import { toCallView } from '../services/calls/call.contract';
import { toCampaignView } from '../services/campaigns/campaign.contract';
import { toContactView } from '../services/contacts/contact.contract';
import type { RecordViews } from '../services/campaigns/contact-mapping';
import { serializeCall } from './call.serializer';
import { serializeCampaign } from './campaign.serializer';
import { serializeContact } from './contact.serializer';

/** The REST shapes, which the campaign webhook mapping reads (docs/campaigns.md). */
export const restRecordViews: RecordViews = { call: (c) => serializeCall(toCallView(c)), contact: (c) => serializeContact(toContactView(c)), campaign: (c) => serializeCampaign(toCampaignView(c)) };
