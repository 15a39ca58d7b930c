import { AgentScenario } from './agent-scenario.entity';
import { AgentTestRun } from './agent-test-run.entity';
import { AiAgent } from './ai-agent.entity';
import { AiAgentVersion } from './ai-agent-version.entity';
import { ApiKey } from './api-key.entity';
import { Call } from './call.entity';
import { Campaign } from './campaign.entity';
import { CampaignContact } from './campaign-contact.entity';
import { Company } from './company.entity';
import { Contact } from './contact.entity';
import { DoNotCallNumber } from './do-not-call-number.entity';
import { PhoneNumber } from './phone-number.entity';
import { WebhookExecution } from './webhook-execution.entity';
import { WebhookFlow } from './webhook-flow.entity';
import { WebhookStep } from './webhook-step.entity';
import { WebhookStepRun } from './webhook-step-run.entity';

export {
  AgentScenario,
  AgentTestRun,
  AiAgent,
  AiAgentVersion,
  ApiKey,
  Call,
  Campaign,
  CampaignContact,
  Company,
  Contact,
  DoNotCallNumber,
  PhoneNumber,
  WebhookExecution,
  WebhookFlow,
  WebhookStep,
  WebhookStepRun,
};

export const entities = [
  Company,
  ApiKey,
  PhoneNumber,
  AiAgent,
  AiAgentVersion,
  Contact,
  Campaign,
  CampaignContact,
  Call,
  WebhookFlow,
  WebhookStep,
  WebhookExecution,
  WebhookStepRun,
  DoNotCallNumber,
  AgentScenario,
  AgentTestRun,
];
