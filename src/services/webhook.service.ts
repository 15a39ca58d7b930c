import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AiAgent, Campaign, WebhookFlow, WebhookStep, type WebhookExecution } from '../entities';
import { NotFoundError, ValidationError } from './errors';
import { createWebhookInput, type EventFiltersInput, listWebhooksInput, type StepInput, type UpdateWebhookInput, updateWebhookInput, useTemplateInput } from './input/webhook.input';
import { camelKeys, findOwned, parseId } from './records';
import type { Caller } from './scope';
import type { WebhookExecutionService } from './webhook-execution.service';
import { parseInput } from './validation';

/** How many executions a flow shows inline (its documented `executions`), newest first. */
export const INLINE_EXECUTIONS = 20;

export interface FlowView {
  flow: WebhookFlow;
  /** Latest executions, newest first. */
  executions: WebhookExecution[];
}

/** A flow with its signing secret: only the answers to create, rotate-secret and a template's use. */
export interface FlowWithSecret extends FlowView {
  secret: string;
}

/** What a copy of an integration template takes from it (a new flow gets its own id, status and secret). */
const COPIED_FLOW_FIELDS = ['logo', 'retryDelay', 'retryDelayUnit', 'maxRetries', 'flowDirection', 'flowMapping', 'tagName', 'categoryName', 'predefinedVariables', 'variables'] as const;
const COPIED_STEP_FIELDS = ['stepNumber', 'webhookUrl', 'webhookMethod', 'webhookTimeout', 'retryLimit', 'timeout', 'webhookUrlParams', 'webhookHeaders', 'webhookBody', 'dependsOnStep', 'successCondition'] as const;

function pick<T, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, source[k]])) as Pick<T, K>;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Event filters name records of the caller's company: an agent or campaign of another
 * company (or none) is refused like any bad input, naming the field, and reveals nothing.
 */
async function checkEventFilters({ scope, em }: Caller, filters: EventFiltersInput | undefined): Promise<void> {
  const agent = filters?.ai_agent_id;
  if (agent && (await em.count(AiAgent, { id: agent, company: scope.companyId, deletedAt: null })) === 0) {
    throw ValidationError.of('event_filters.ai_agent_id', 'Must name an agent of your company');
  }
  const campaign = filters?.campaign_id;
  if (campaign && (await em.count(Campaign, { id: campaign, company: scope.companyId, deletedAt: null })) === 0) {
    throw ValidationError.of('event_filters.campaign_id', 'Must name a campaign of your company');
  }
}

/** Outbound webhook flows and the integration-template catalogue. */
export class WebhookService {
  constructor(private readonly executions: WebhookExecutionService) {}

  async list(caller: Caller, input: unknown): Promise<FlowView[]> {
    const { workspace } = parseInput(listWebhooksInput, input);
    const flows = await caller.em.find(
      WebhookFlow,
      { company: caller.scope.companyId, workspaceId: workspace, deletedAt: null },
      { populate: ['steps'], orderBy: { createdAt: 'desc', id: 'desc' } },
    );
    return this.withExecutions(caller, flows);
  }

  /** Integration templates: flows every company can read, copied to be used. */
  async templates({ em }: Caller): Promise<FlowView[]> {
    const flows = await em.find(WebhookFlow, { isTemplate: true, company: null, deletedAt: null }, { populate: ['steps'], orderBy: { name: 'asc' } });
    return flows.map((flow) => ({ flow, executions: [] }));
  }

  async get(caller: Caller, id: unknown): Promise<FlowView> {
    const flow = await this.getOwn(caller, id);
    return (await this.withExecutions(caller, [flow]))[0]!;
  }

  /** The steps of each flow (own or template), in `step_number` order, in one query. */
  async stepsByFlows({ scope, em }: Caller, flowIds: readonly string[]): Promise<Map<string, WebhookStep[]>> {
    const steps = await em.find(
      WebhookStep,
      { flow: { id: [...flowIds], $or: [{ company: scope.companyId }, { isTemplate: true, company: null }] }, deletedAt: null },
      { orderBy: { stepNumber: 'asc' } },
    );
    return new Map(flowIds.map((id) => [id, steps.filter((s) => s.flow.id === id)]));
  }

  async create(caller: Caller, input: unknown): Promise<FlowWithSecret> {
    const { workspace, steps, ...fields } = parseInput(createWebhookInput, input);
    await checkEventFilters(caller, fields.event_filters);
    const secret = newSecret();
    const flow = caller.em.create(WebhookFlow, {
      ...camelKeys(fields),
      name: fields.name,
      company: caller.scope.companyId,
      createdBy: caller.scope.userId,
      workspaceId: workspace,
      secret,
    });
    this.addSteps(caller.em, flow, steps);
    await caller.em.flush();
    return { flow, executions: [], secret };
  }

  /** Partial update; `steps`, `variables` and `predefinedVariables`, when sent, replace the old ones. */
  async update(caller: Caller, id: unknown, input: unknown): Promise<FlowView> {
    const flow = await this.getOwn(caller, id);
    const { workspace, steps, ...fields }: UpdateWebhookInput = parseInput(updateWebhookInput, input);
    await checkEventFilters(caller, fields.event_filters);
    caller.em.assign(flow, { ...camelKeys(fields), ...(workspace ? { workspaceId: workspace } : {}) });
    const numbers = new Set(steps ? steps.map((s) => s.step_number) : flow.steps.getItems().map((s) => s.stepNumber));
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
    return (await this.withExecutions(caller, [flow]))[0]!;
  }

  /** A new signing secret for the caller's flow, answered this once; the old one stops signing at once. */
  async rotateSecret(caller: Caller, id: unknown): Promise<FlowWithSecret> {
    const flow = await this.getOwn(caller, id);
    const secret = newSecret();
    flow.secret = secret;
    await caller.em.flush();
    return { ...(await this.withExecutions(caller, [flow]))[0]!, secret };
  }

  /**
   * Copies an integration template into the caller's company and workspace as a new,
   * running flow with its own secret (answered this once). The template is not changed.
   */
  async useTemplate(caller: Caller, templateId: unknown, input: unknown): Promise<FlowWithSecret> {
    const { workspace, name } = parseInput(useTemplateInput, input ?? {});
    const where = { id: parseId(templateId), isTemplate: true, company: null, deletedAt: null };
    const template = await caller.em.findOne(WebhookFlow, where, { populate: ['steps'] });
    if (!template) throw new NotFoundError('Integration template');
    const secret = newSecret();
    const copy = structuredClone(pick(template, COPIED_FLOW_FIELDS));
    const flow = caller.em.create(WebhookFlow, {
      ...copy,
      name: name ?? template.name,
      company: caller.scope.companyId,
      createdBy: caller.scope.userId,
      workspaceId: workspace,
      secret,
    });
    for (const step of template.steps.getItems()) {
      flow.steps.add(caller.em.create(WebhookStep, { ...structuredClone(pick(step, COPIED_STEP_FIELDS)), flow }));
    }
    await caller.em.flush();
    return { flow, executions: [], secret };
  }

  /** Soft delete: status `deleted`, `deleted_at` set, hidden from lists. */
  async delete(caller: Caller, id: unknown): Promise<void> {
    const flow = await this.getOwn(caller, id);
    flow.status = 'deleted';
    flow.deletedAt = new Date();
    await caller.em.flush();
  }

  private async getOwn({ scope, em }: Caller, id: unknown): Promise<WebhookFlow> {
    return findOwned(em, WebhookFlow, 'Webhook', { id: parseId(id), company: scope.companyId, deletedAt: null }, ['steps']);
  }

  private addSteps(em: EntityManager, flow: WebhookFlow, steps: StepInput[]): void {
    for (const s of steps) {
      flow.steps.add(em.create(WebhookStep, { ...camelKeys(s), flow, stepNumber: s.step_number, webhookUrl: s.webhook_url }));
    }
  }

  /** Each flow with its latest executions, in one query whatever the number of flows. */
  private async withExecutions(caller: Caller, flows: WebhookFlow[]): Promise<FlowView[]> {
    const latest = await this.executions.pageByFlows(caller, flows.map((f) => f.id), { limit: INLINE_EXECUTIONS });
    return flows.map((flow) => ({ flow, executions: latest.get(flow.id)!.items }));
  }
}
