import { AiAgent } from '../../entities';
import type { CallDirection, CallStatus, DynamicVariable } from '../../entities/call.entity';
import { alone, hotStatement, type ViewReads } from '../../db/statements';
import { AGENT_SETTINGS, type AgentSettings } from '../agents/agent.contract';
import { readableAgentSql } from '../agents/agent-ownership';

/** What a conversation's opening reads of its call, with the settings the call runs with (null: its agent or version is gone). */
export interface OpeningCall {
  id: string;
  companyId: string;
  campaignId: string | null;
  contactId: string | null;
  workspace: string;
  callSid: string;
  callStatus: CallStatus;
  callFrom: string;
  callTo: string;
  callDirection: CallDirection;
  agentDynamicVariables: DynamicVariable[];
  machineDetection: string | null;
  transcriptObject: Record<string, unknown> | null;
  agent: AgentSettings | null;
}

/**
 * An agent's draft settings as a version stores them (`AgentSettings`, camelCase keys), built
 * from the row aliased `alias` by the ORM's metadata, so that both read alike.
 */
function agentSettingsJson(reads: ViewReads, alias: string): string {
  const meta = reads.metadata.get(AiAgent.name);
  const pairs = AGENT_SETTINGS.map((key) => `'${key}', ${alias}.${reads.platform.quoteIdentifier(meta.properties[key].fieldNames[0])}`);
  return `jsonb_build_object(${pairs.join(', ')})`;
}

/**
 * The opening of a call's conversation, in one statement on the reads' pool: the call, not
 * deleted, by id alone (the relay's setup names only the call: docs/scaling.md), and the
 * settings it runs with (`agentOfCall`'s rule): its agent's published version when it names
 * one, else its agent's draft, the call's company's own agent (deleted or not) or a template.
 */
const OPENING = hotStatement<OpeningCall>(
  'conversation-opening',
  (reads) => `/* provider:call-by-id */ SELECT c.id, c.company_id AS "companyId", c.campaign_id AS "campaignId", c.contact_id AS "contactId",
     c.workspace_id AS "workspace", c.call_sid AS "callSid", c.call_status AS "callStatus", c.call_from AS "callFrom", c.call_to AS "callTo",
     c.call_direction AS "callDirection", c.agent_dynamic_variables AS "agentDynamicVariables", c.machine_detection AS "machineDetection",
     c.transcript_object AS "transcriptObject",
     CASE WHEN c.ai_agent_version IS NULL
       THEN (SELECT ${agentSettingsJson(reads, 'a')} FROM ai_agents a WHERE a.id = c.ai_agent_id AND ${readableAgentSql('a', 'c.company_id')})
       ELSE (SELECT v.settings FROM ai_agent_versions v WHERE v.company_id = c.company_id AND v.agent_id = c.ai_agent_id AND v.version = c.ai_agent_version)
     END AS agent
   FROM calls c WHERE c.id = ?::uuid AND c.deleted_at IS NULL`,
);

/** The call `callId` as its conversation opens it; null when there is no such call (or it was deleted). */
export async function readOpeningCall(reads: ViewReads, callId: string): Promise<OpeningCall | null> {
  const [call] = await OPENING(alone, reads, [callId]);
  return call ?? null;
}
