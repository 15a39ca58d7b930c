import type { Call, Campaign, Contact } from '../../entities';
import type { DynamicVariable } from '../../entities/call.entity';
import { valueAt } from '../flows/placeholders';

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

/**
 * Each record as integrators see it: its REST (snake_case) shape, dates as ISO 8601 text,
 * internal columns left out. Given by the composition root (the REST serializers), so that
 * the mapping reads exactly what the API answers.
 */
export interface RecordViews {
  call(call: Call): Record<string, unknown>;
  contact(contact: Contact): Record<string, unknown>;
  campaign(campaign: Campaign): Record<string, unknown>;
}

/** The records a webhook mapping may read, each in its REST (snake_case) shape. */
export interface WebhookSources {
  call: Record<string, unknown>;
  contact: Record<string, unknown>;
  campaign: Record<string, unknown>;
  agent_post_call_outcomes: Record<string, unknown>;
}

export type WebhookSource = keyof WebhookSources;

export const WEBHOOK_SOURCES = ['call', 'contact', 'campaign', 'agent_post_call_outcomes'] as const satisfies readonly WebhookSource[];

/** Where a variable without a (known) source is looked for, in order. */
const DEFAULT_ORDER: WebhookSource[] = ['call', 'contact', 'campaign'];

/** A mapped variable whose path led nowhere. */
export interface UnresolvedMapping {
  name: string;
  path: string;
}

/**
 * The value at `path` in the source's record. A path may start with the source's name
 * (`contact.firstname` is `firstname` under source `contact`); it is first read as
 * written, so that a field named like its source (a post-call outcome, say) stays reachable.
 */
function readSource(records: WebhookSources, source: WebhookSource, path: string): unknown {
  const value = valueAt(records[source], path);
  if (value !== undefined || !path.startsWith(`${source}.`)) return value;
  return valueAt(records[source], path.slice(source.length + 1));
}

/**
 * A flow's trigger variables from `webhook_mapping_variables` (flow variable -> path) and
 * `webhook_mapping_variables_sources` (flow variable -> one of WEBHOOK_SOURCES). A variable
 * without a known source is looked up in the call, then the contact, then the campaign.
 * Values keep their JSON types. A path that leads nowhere gives no variable (so the flow's
 * own fallbacks apply) and is answered in `unresolved`.
 */
export function webhookVariables(mapping: Record<string, unknown>, sources: Record<string, unknown>, records: WebhookSources): { variables: Record<string, unknown>; unresolved: UnresolvedMapping[] } {
  const variables: Record<string, unknown> = {};
  const unresolved: UnresolvedMapping[] = [];
  for (const [name, path] of Object.entries(mapping)) {
    if (typeof path !== 'string') continue;
    const source = sources[name];
    const order = (WEBHOOK_SOURCES as readonly unknown[]).includes(source) ? [source as WebhookSource] : DEFAULT_ORDER;
    const value = order.map((from) => readSource(records, from, path)).find((v) => v !== undefined);
    if (value === undefined) unresolved.push({ name, path });
    else variables[name] = value;
  }
  return { variables, unresolved };
}

/**
 * Whether a campaign's webhook mapping reads the call's post-call outcomes: a variable of
 * source `agent_post_call_outcomes`, or a path into the call's `agent_post_call_outcomes`.
 * Such a flow waits for the call's analysis (docs/campaigns.md).
 */
export function readsOutcomes(mapping: Record<string, unknown>, sources: Record<string, unknown>): boolean {
  return Object.values(sources).includes('agent_post_call_outcomes') || Object.values(mapping).some((path) => typeof path === 'string' && path.split('.').includes('agent_post_call_outcomes'));
}
