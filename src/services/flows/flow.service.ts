import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AiAgent, Campaign, WebhookFlow, WebhookStep } from '../../entities';
import { NotFoundError, ValidationError } from '../shared/errors';
import {
  createWebhookWrite,
  listWebhooksInput,
  type StepWrite,
  updateWebhookWrite,
  type UseTemplateInput,
  useTemplateInput,
  type WebhookCreateInput,
  type WebhookListInput,
  type WebhookUpdateInput,
} from './flow.input';
import { findOwned, parseId } from '../shared/records';
import { type Caller, recordedUser } from '../shared/scope';
import { type EventFiltersWrite, storedPredefined, toFlowView, type WebhookFlowView } from './flow.contract';
import type { WebhookExecutionService } from './flow-execution.service';
import { sealPredefined } from './flow-secrets';
import type { SecretBox } from '../shared/secret-box';
import type { Clock } from '../shared/clock';
import { parseInput } from '../shared/validation';
import { usableAgents } from '../agents/agent-ownership';

/** How many executions a flow shows inline (its documented `executions`), newest first. */
const INLINE_EXECUTIONS = 20;

/** What a copy of an integration template takes from it (a new flow gets its own id, status and secret). */
const COPIED_FLOW_FIELDS = ['logo', 'retryDelay', 'retryDelayUnit', 'maxRetries', 'flowDirection', 'flowMapping', 'tagName', 'categoryName', 'predefinedVariables', 'variables'] as const;
const COPIED_STEP_FIELDS = [
  'stepNumber',
  'webhookUrl',
  'webhookMethod',
  'webhookTimeout',
  'retryLimit',
  'timeout',
  'webhookUrlParams',
  'webhookHeaders',
  'webhookBody',
  'dependsOnStep',
  'successCondition',
] as const;

function pick<T, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, source[k]])) as Pick<T, K>;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Event filters name records of the caller's company: an agent or campaign of another
 * company (or none) is refused like any bad input, naming the field, and reveals nothing.
 */
async function checkEventFilters({ scope, em }: Caller, filters: EventFiltersWrite | undefined): Promise<void> {
  const agent = filters?.ai_agent_id;
  if (agent && (await em.count(AiAgent, { id: agent, ...usableAgents(scope.companyId) })) === 0) {
    throw ValidationError.of('eventFilters.aiAgentId', 'Must name an agent of your company');
  }
  const campaign = filters?.campaign_id;
  if (campaign && (await em.count(Campaign, { id: campaign, company: scope.companyId, deletedAt: null })) === 0) {
    throw ValidationError.of('eventFilters.campaignId', 'Must name a campaign of your company');
  }
}

/** Outbound webhook flows and the integration-template catalogue. */
export class WebhookService {
  constructor(
    private readonly executions: WebhookExecutionService,
    /** Encrypts the signing secret and the secret variables as they are stored. */
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {}

  async list(caller: Caller, input: WebhookListInput): Promise<WebhookFlowView[]> {
    const { workspace } = parseInput(listWebhooksInput, input);
    const flows = await caller.em.find(WebhookFlow, { company: caller.scope.companyId, workspaceId: workspace, deletedAt: null }, { populate: ['steps'], orderBy: { createdAt: 'desc', id: 'desc' } });
    return this.withExecutions(caller, flows);
  }

  /** Integration templates: flows every company can read, copied to be used. */
  async templates({ em }: Caller): Promise<WebhookFlowView[]> {
    const flows = await em.find(WebhookFlow, { isTemplate: true, company: null, deletedAt: null }, { populate: ['steps'], orderBy: { name: 'asc' } });
    return flows.map((flow) => toFlowView({ flow, executions: [] }));
  }

  /** One of the company's flows, or an integration template (readable by every company, as in the catalogue). */
  async get(caller: Caller, id: string): Promise<WebhookFlowView> {
    const where = { id: parseId(id), deletedAt: null, $or: [{ company: caller.scope.companyId }, { isTemplate: true, company: null }] };
    const flow = await findOwned(caller.em, WebhookFlow, 'Webhook', where, ['steps']);
    return (await this.withExecutions(caller, [flow]))[0];
  }

  /** A new flow, answered with its signing secret. */
  async create(caller: Caller, input: WebhookCreateInput): Promise<WebhookFlowView> {
    const { workspace, steps, ...fields } = parseInput(createWebhookWrite, input);
    await checkEventFilters(caller, fields.eventFilters);
    const secret = newSecret();
    // Untyped: the input's variables are looser than the entity's type (its JSON column).
    const flow = caller.em.create(WebhookFlow, {
      ...(fields as Record<string, unknown>),
      ...(fields.predefinedVariables ? { predefinedVariables: sealPredefined(storedPredefined(fields.predefinedVariables, []), this.secrets) } : {}),
      name: fields.name,
      company: caller.scope.companyId,
      createdBy: recordedUser(caller.scope),
      workspaceId: workspace,
      secret: this.secrets.seal(secret),
    });
    this.addSteps(caller.em, flow, steps);
    await caller.em.flush();
    return toFlowView({ flow, executions: [], secret });
  }

  /**
   * Partial update; `steps`, `variables` and `predefinedVariables`, when sent, replace the
   * old ones.
   */
  async update(caller: Caller, id: string, input: WebhookUpdateInput): Promise<WebhookFlowView> {
    const flow = await this.getOwn(caller, id);
    const { workspace, steps, ...fields } = parseInput(updateWebhookWrite, input);
    await checkEventFilters(caller, fields.eventFilters);
    const predefined = fields.predefinedVariables ? { predefinedVariables: sealPredefined(storedPredefined(fields.predefinedVariables, flow.predefinedVariables), this.secrets) } : {};
    caller.em.assign(flow, { ...fields, ...predefined, ...(workspace ? { workspaceId: workspace } : {}) });
    const numbers = new Set((steps ?? flow.steps.getItems()).map((s) => s.stepNumber));
    const orphan = flow.variables.findIndex((v) => !numbers.has(v.stepId));
    if (orphan >= 0) throw ValidationError.of(`variables[${orphan}].stepId`, 'Must name a step of this flow');
    await caller.em.begin();
    try {
      // The old steps go first, in the same transaction: a new step may reuse a step number.
      if (steps) {
        flow.steps.removeAll();
        await caller.em.flush();
        this.addSteps(caller.em, flow, steps);
      }
      await caller.em.commit();
    } catch (err) {
      await caller.em.rollback();
      throw err;
    }
    return (await this.withExecutions(caller, [flow]))[0];
  }

  /** A new signing secret for the caller's flow, answered this once; the old one stops signing at once. */
  async rotateSecret(caller: Caller, id: string): Promise<WebhookFlowView> {
    const flow = await this.getOwn(caller, id);
    const secret = newSecret();
    flow.secret = this.secrets.seal(secret);
    await caller.em.flush();
    return (await this.withExecutions(caller, [flow], secret))[0];
  }

  /**
   * Copies an integration template into the caller's company and workspace as a new,
   * running flow with its own secret (answered this once). The template is not changed.
   */
  async useTemplate(caller: Caller, templateId: string, input: UseTemplateInput | undefined): Promise<WebhookFlowView> {
    const { workspace, name } = parseInput(useTemplateInput, input ?? {});
    const where = { id: parseId(templateId), isTemplate: true, company: null, deletedAt: null };
    const template = await caller.em.findOne(WebhookFlow, where, { populate: ['steps'] });
    if (!template) throw new NotFoundError('Integration template');
    const secret = newSecret();
    const copy = structuredClone(pick(template, COPIED_FLOW_FIELDS));
    const flow = caller.em.create(WebhookFlow, {
      ...copy,
      predefinedVariables: sealPredefined(copy.predefinedVariables, this.secrets),
      name: name ?? template.name,
      company: caller.scope.companyId,
      createdBy: recordedUser(caller.scope),
      workspaceId: workspace,
      secret: this.secrets.seal(secret),
    });
    for (const step of template.steps.getItems()) {
      flow.steps.add(caller.em.create(WebhookStep, { ...structuredClone(pick(step, COPIED_STEP_FIELDS)), flow }));
    }
    await caller.em.flush();
    return toFlowView({ flow, executions: [], secret });
  }

  /** Soft delete: status `deleted`, `deleted_at` set, hidden from lists. */
  async delete(caller: Caller, id: string): Promise<void> {
    const flow = await this.getOwn(caller, id);
    flow.status = 'deleted';
    flow.deletedAt = this.clock.now();
    await caller.em.flush();
  }

  private async getOwn({ scope, em }: Caller, id: string): Promise<WebhookFlow> {
    return findOwned(em, WebhookFlow, 'Webhook', { id: parseId(id), company: scope.companyId, deletedAt: null }, ['steps']);
  }

  private addSteps(em: EntityManager, flow: WebhookFlow, steps: StepWrite[]): void {
    for (const step of steps) {
      // Untyped: a step's body and condition are any JSON, looser than the entity's types.
      flow.steps.add(em.create(WebhookStep, { ...(step as Record<string, unknown>), flow, stepNumber: step.stepNumber, webhookUrl: step.webhookUrl }));
    }
  }

  /** The views of flows with their latest executions, in one query whatever the number of flows (and a secret just made). */
  private async withExecutions(caller: Caller, flows: WebhookFlow[], secret?: string): Promise<WebhookFlowView[]> {
    const latest = await this.executions.pageByFlows(
      caller,
      flows.map((f) => f.id),
      { limit: INLINE_EXECUTIONS },
    );
    return flows.map((flow) => toFlowView({ flow, executions: latest.get(flow.id)!.items, ...(secret ? { secret } : {}) }));
  }
}
