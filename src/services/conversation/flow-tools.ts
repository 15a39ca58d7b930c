import type { MikroORM } from '@mikro-orm/postgresql';
import { WebhookExecution, WebhookStepRun } from '../../entities';
import { describeError } from '../errors';
import type { FlowRunner } from '../flows/flow-runner';
import type { FlowToolDefinition } from './agent-flow';
import type { CallTool } from './call-tools';

/** What a flow run as a tool answers the model. */
export interface FlowOutcome {
  status: 'success' | 'failed' | 'timeout';
  /** Variables the flow's steps extracted, later steps over earlier ones. */
  variables: Record<string, unknown>;
  error?: string;
}

/** Runs one of the call's company's flows and waits (bounded) for it. */
export interface FlowInvoker {
  invoke(webhookId: string, variables: Record<string, unknown>, signal: AbortSignal): Promise<FlowOutcome>;
}

/** How long a flow tool waits for its execution before telling the model it timed out. */
export const FLOW_TOOL_WAIT_MS = 20_000;
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Triggers flows of one company, as the product (no credential, so no rate limit), and
 * follows the execution until it ends, the wait runs out or the turn is canceled.
 */
export class CompanyFlowInvoker implements FlowInvoker {
  constructor(
    private readonly orm: MikroORM,
    private readonly flows: FlowRunner,
    private readonly companyId: string,
    private readonly waitMs = FLOW_TOOL_WAIT_MS,
  ) {}

  async invoke(webhookId: string, variables: Record<string, unknown>, signal: AbortSignal): Promise<FlowOutcome> {
    let executionId: string;
    try {
      const caller = { scope: { companyId: this.companyId, userId: null }, em: this.orm.em.fork() };
      executionId = (await this.flows.trigger(caller, webhookId, { variables })).id;
    } catch (err) {
      return { status: 'failed', variables: {}, error: describeError(err) };
    }
    const deadline = Date.now() + this.waitMs;
    while (Date.now() < deadline && !signal.aborted) {
      const em = this.orm.em.fork();
      const execution = await em.findOne(WebhookExecution, { id: executionId, company: this.companyId });
      if (execution?.status === 'success' || execution?.status === 'failed') {
        const runs = await em.find(WebhookStepRun, { execution: executionId, attemptNumber: execution.attemptNumber }, { orderBy: { stepNumber: 'asc' } });
        const extracted = Object.assign({}, ...runs.map((r) => r.extracted)) as Record<string, unknown>;
        return { status: execution.status, variables: extracted, ...(execution.errorMessage ? { error: execution.errorMessage } : {}) };
      }
      await sleep(POLL_MS);
    }
    return { status: 'timeout', variables: {}, error: `The flow did not finish within ${Math.round(this.waitMs / 1000)} s` };
  }
}

/** The flows of `agent_flow.tools` as tools: the arguments become the flow's variables. */
export function flowTools(definitions: FlowToolDefinition[], invoker: FlowInvoker | null): CallTool[] {
  if (!invoker) return [];
  return definitions.map((d) => ({
    spec: { name: d.name, description: d.description, parameters: d.parameters },
    run: async (args, _sink, signal) => ({ content: JSON.stringify(await invoker.invoke(d.webhook_id, args, signal)) }),
  }));
}
