import type { MikroORM } from '@mikro-orm/postgresql';
import { WebhookExecution, WebhookStepRun } from '../../entities';
import { describeError } from '../shared/errors';
import type { FlowRunner } from '../flows/flow-runner';
import type { FlowToolDefinition } from './agent-flow';
import type { CallTool } from './call-tools';
import { argumentCheck, closedParameters } from './tool-parameters';

/** What a flow run as a tool answers the model. */
export interface FlowOutcome {
  status: 'success' | 'failed' | 'timeout';
  /** Variables the flow's steps extracted, later steps over earlier ones. */
  variables: Record<string, unknown>;
  error?: string;
}

/** Runs one of the call's company's flows with a model's (checked) arguments and waits (bounded) for it. */
export interface FlowInvoker {
  invoke(webhookId: string, args: Record<string, unknown>, signal: AbortSignal): Promise<FlowOutcome>;
}

/** What the service, never the model, tells a flow about the call: its trigger variables (a type, so that it is a record of variables). */
export type CallContext = {
  call_id: string;
  contact_id: string | null;
  call_from: string;
  call_to: string;
};

/** How long a flow tool waits for its execution before telling the model it timed out. */
export const FLOW_TOOL_WAIT_MS = 20_000;
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Triggers flows of one company for one call, as the product (no credential, so no rate
 * limit), and follows the execution until it ends, the wait runs out or the turn is
 * canceled. The call's context is the trigger's variables; the model's arguments fill only
 * what the flow leaves to them (`FlowRunner.start`).
 */
export class CompanyFlowInvoker implements FlowInvoker {
  constructor(
    private readonly orm: MikroORM,
    private readonly flows: FlowRunner,
    private readonly companyId: string,
    private readonly context: CallContext,
    private readonly waitMs = FLOW_TOOL_WAIT_MS,
  ) {}

  async invoke(webhookId: string, args: Record<string, unknown>, signal: AbortSignal): Promise<FlowOutcome> {
    let executionId: string;
    try {
      const caller = { scope: { companyId: this.companyId, userId: null }, em: this.orm.em.fork() };
      executionId = (await this.flows.trigger(caller, webhookId, { variables: this.context }, args)).id;
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

/**
 * The flows of `agent_flow.tools` as tools. Arguments that do not fit the tool's parameters
 * (an undeclared name, a wrong type) are refused, the model told why, and no flow runs.
 */
export function flowTools(definitions: FlowToolDefinition[], invoker: FlowInvoker | null): CallTool[] {
  if (!invoker) return [];
  return definitions.map((d) => {
    const check = argumentCheck(d.parameters);
    return {
      spec: { name: d.name, description: d.description, parameters: closedParameters(d.parameters) },
      run: async (args, _sink, signal) => {
        const refusal = check(args);
        const outcome: FlowOutcome = refusal ? { status: 'failed', variables: {}, error: refusal } : await invoker.invoke(d.webhook_id, args, signal);
        return { content: JSON.stringify(outcome) };
      },
    };
  });
}
