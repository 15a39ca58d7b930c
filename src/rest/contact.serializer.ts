import type { Contact } from '../entities';
import { iso, refId } from './serialize';

/** Contact, interface 2.3, field for field. */
export function serializeContact(c: Contact) {
  return {
    id: c.id,
    company_id: c.company.id,
    firstname: c.firstname,
    lastname: c.lastname,
    phone_number: c.phoneNumber,
    metadata: c.metadata,
    number_country_code: c.numberCountryCode,
    last_call_status: c.lastCallStatus,
    last_call_at: iso(c.lastCallAt),
    last_call_duration: c.lastCallDuration,
    last_call_feedback: c.lastCallFeedback,
    source_name: c.sourceName,
    tag_name: c.tagName,
    category_name: c.categoryName,
    notes: c.notes,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    campaign_id: refId(c.campaign),
    status: c.status,
  };
}
