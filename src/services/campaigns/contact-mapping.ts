import type { DynamicVariable } from '../../entities/call.entity';

/**
 * The value at a dotted path (`firstname`, `metadata.plan`) in a record as the REST surface
 * names its fields (snake_case). Undefined when any step is missing.
 */
export function valueAt(source: unknown, path: string): unknown {
  let value: unknown = source;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A value as a variable's text: strings as they are, dates in ISO 8601, anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/**
 * A campaign call's dynamic variables from `agent_variables_contact_metadata_mapping`
 * (agent variable name -> path into the contact). A path that leads nowhere, to null or to
 * an empty string gives no variable, as make-call refuses empty values.
 */
export function dynamicVariables(mapping: Record<string, unknown>, contact: Record<string, unknown>): DynamicVariable[] {
  const variables: DynamicVariable[] = [];
  for (const [name, path] of Object.entries(mapping)) {
    if (typeof path !== 'string') continue;
    const value = valueAt(contact, path);
    if (value === undefined || value === null || value === '') continue;
    variables.push({ name, value: asText(value) });
  }
  return variables;
}

/** The records a webhook mapping may read, each in its REST (snake_case) shape. */
export interface WebhookSources {
  call: Record<string, unknown>;
  contact: Record<string, unknown>;
  campaign: Record<string, unknown>;
  agent_post_call_outcomes: Record<string, unknown>;
}

export const WEBHOOK_SOURCES = ['call', 'contact', 'campaign', 'agent_post_call_outcomes'] as const;

/**
 * A flow's trigger variables from `webhook_mapping_variables` (flow variable -> path) and
 * `webhook_mapping_variables_sources` (flow variable -> one of WEBHOOK_SOURCES). A variable
 * without a known source is looked up in the call, then the contact, then the campaign.
 * Paths that lead nowhere give no variable; values keep their JSON types.
 */
export function webhookVariables(mapping: Record<string, unknown>, sources: Record<string, unknown>, records: WebhookSources): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const [name, path] of Object.entries(mapping)) {
    if (typeof path !== 'string') continue;
    const source = sources[name];
    const order = typeof source === 'string' && (WEBHOOK_SOURCES as readonly string[]).includes(source)
      ? [records[source as keyof WebhookSources]]
      : [records.call, records.contact, records.campaign];
    const value = order.map((record) => valueAt(record, path)).find((v) => v !== undefined);
    if (value !== undefined) variables[name] = value instanceof Date ? value.toISOString() : value;
  }
  return variables;
}
