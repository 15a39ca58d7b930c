import { z } from 'zod';
import type { ExecutionDetail } from '../services/flows/flow-execution.service';
import { executionContract, type ExecutionView, stepRunContract } from '../services/flows/flow-execution.contract';
import { restShape } from './contract-shape';
import { shape } from './serialize';

/** Execution, interface 2.5, derived from its contract: the shape a flow shows inline. */
const execution = restShape(executionContract);
export const executionShape = execution.schema;

/** One step of one attempt, as logged, derived from its contract. */
const stepRun = restShape(stepRunContract);
export const stepRunShape = stepRun.schema;

/** An execution as listed: the documented fields (interface 2.5) and its flow. */
export const executionItemShape = executionShape.extend({ flow_id: shape.id() }).meta({ id: 'WebhookExecutionItem' });

/** An execution with its trigger variables and step log. */
export const executionDetailShape = executionItemShape.extend({ variables: shape.json(), steps: z.array(stepRunShape) }).meta({ id: 'WebhookExecutionDetail' });

export function serializeExecutionItem(view: ExecutionView) {
  return { ...execution.serialize(view), flow_id: view.flowId };
}

export function serializeExecutionDetail({ execution: view, steps }: ExecutionDetail) {
  return { ...serializeExecutionItem(view), variables: view.variables, steps: steps.map(stepRun.serialize) };
}
