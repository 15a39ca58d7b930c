import { WebhookExecution, WebhookFlow, WebhookStepRun } from '../../entities';
import { type ExecutionListInput, listExecutionsInput } from './flow-execution.input';
import { page as pageInput } from '../shared/common.input';
import { countPerParent, newestFirst, newestFirstPerParent, type Page, type PerParent } from '../shared/pagination';
import { findOwned, parseId } from '../shared/records';
import type { Caller, Scope } from '../shared/scope';
import { parseInput } from '../shared/validation';
import { type ExecutionView, type StepRunView, toExecutionView, toStepRunView } from './flow-execution.contract';

export interface ExecutionDetail {
  execution: ExecutionView;
  /** The step log: every step of every attempt, in attempt then step order. */
  steps: StepRunView[];
}

const pageOfViews = (page: Page<WebhookExecution>): Page<ExecutionView> => ({ ...page, items: page.items.map(toExecutionView) });

const perFlow = (scope: Scope, parentIds: readonly string[]): PerParent<WebhookExecution> => ({ parent: 'flow', parentIds, where: { company: scope.companyId } });

/** Reading a flow's executions and their step logs. Flows run in FlowRunner. */
export class WebhookExecutionService {
  /** Newest first, keyset-paginated like the calls list. */
  async list(caller: Caller, flowId: string, input: ExecutionListInput): Promise<Page<ExecutionView>> {
    const flow = await this.ownFlow(caller, flowId);
    const page = parseInput(listExecutionsInput, input);
    return pageOfViews(await newestFirst(caller.em, WebhookExecution, { flow: flow.id, company: caller.scope.companyId }, page));
  }

  async get(caller: Caller, flowId: string, executionId: string): Promise<ExecutionDetail> {
    const flow = await this.ownFlow(caller, flowId);
    const where = { id: parseId(executionId), flow: flow.id, company: caller.scope.companyId };
    const execution = await findOwned(caller.em, WebhookExecution, 'Execution', where);
    const steps = await caller.em.find(WebhookStepRun, { execution: execution.id }, { orderBy: { attemptNumber: 'asc', stepNumber: 'asc' } });
    return { execution: toExecutionView(execution), steps: steps.map(toStepRunView) };
  }

  /** The latest executions of each flow of the caller's company, a page per flow, in one query. */
  async pageByFlows({ scope, em }: Caller, flowIds: readonly string[], input: ExecutionListInput): Promise<Map<string, Page<ExecutionView>>> {
    const pages = await newestFirstPerParent(em, WebhookExecution, perFlow(scope, flowIds), parseInput(pageInput(), input));
    return new Map([...pages].map(([flowId, page]) => [flowId, pageOfViews(page)]));
  }

  async countByFlows({ scope, em }: Caller, flowIds: readonly string[]): Promise<Map<string, number>> {
    return countPerParent(em, WebhookExecution, perFlow(scope, flowIds));
  }

  /** One execution of the caller's company, by its id alone. */
  async getById({ scope, em }: Caller, id: string): Promise<ExecutionView> {
    return toExecutionView(await findOwned(em, WebhookExecution, 'Execution', { id: parseId(id), company: scope.companyId }));
  }

  /** The step logs of several executions of the caller's company, in one query. */
  async stepLogsOf({ scope, em }: Caller, executionIds: readonly string[]): Promise<Map<string, StepRunView[]>> {
    const runs = await em.find(WebhookStepRun, { execution: { id: [...executionIds], company: scope.companyId } }, { orderBy: { attemptNumber: 'asc', stepNumber: 'asc' } });
    const byExecution = new Map<string, StepRunView[]>(executionIds.map((id) => [id, []]));
    for (const run of runs) byExecution.get(run.execution.id)?.push(toStepRunView(run));
    return byExecution;
  }

  private ownFlow({ scope, em }: Caller, id: string): Promise<WebhookFlow> {
    return findOwned(em, WebhookFlow, 'Webhook', { id: parseId(id), company: scope.companyId, deletedAt: null });
  }
}
