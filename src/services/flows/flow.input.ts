import { z } from 'zod';
import { camelKeys, type Naming, snakeKeys, snakeName } from '../shared/naming';
import { type EventFiltersWrite, eventFiltersWrite, flowFields, flowWorkspaceFields, stepList, stepWrite } from './flow.contract';
import { listedWorkspace, requiredText, workspace } from '../shared/common.input';

/** A step as the entity names its fields: GraphQL sends it so, a REST body's is renamed for it. */
const camelStep = z.strictObject(camelKeys(stepWrite.shape));
export type StepWrite = z.output<typeof camelStep>;

/** What the rules across a flow's fields read, its steps camelCase whichever naming they came in. */
interface FlowRules {
  steps?: StepWrite[];
  variables?: { stepId: number }[];
}

/**
 * Step numbers unique; a dependency names an earlier step; a variable names a step. Without
 * `steps` (a partial update) the service checks the variables against the stored steps.
 * Issues name a step's fields in the write's naming.
 */
function checkSteps(flow: FlowRules, ctx: z.RefinementCtx, naming: Naming): void {
  if (!flow.steps) return;
  const name = (key: keyof StepWrite) => (naming === 'camelCase' ? key : snakeName(key));
  const numbers = new Set<number>();
  flow.steps.forEach((s, i) => {
    if (numbers.has(s.stepNumber)) ctx.addIssue({ code: 'custom', path: ['steps', i, name('stepNumber')], message: 'Step numbers must be unique' });
    numbers.add(s.stepNumber);
  });
  flow.steps.forEach((s, i) => {
    if (s.dependsOnStep != null && (s.dependsOnStep >= s.stepNumber || !numbers.has(s.dependsOnStep))) {
      ctx.addIssue({ code: 'custom', path: ['steps', i, name('dependsOnStep')], message: 'Must name an earlier step of this flow' });
    }
  });
  flow.variables?.forEach((v, i) => {
    if (!numbers.has(v.stepId)) ctx.addIssue({ code: 'custom', path: ['variables', i, 'stepId'], message: 'Must name a step of this flow' });
  });
}

type SnakeFlow = Omit<FlowRules, 'steps'> & { steps?: z.output<typeof stepWrite>[] };

/** A REST body's rules, read with its steps renamed. */
const checkSnakeSteps = (flow: SnakeFlow, ctx: z.RefinementCtx) => checkSteps({ ...flow, steps: flow.steps?.map(camelKeys) }, ctx, 'snake_case');
const checkCamelSteps = (flow: FlowRules, ctx: z.RefinementCtx) => checkSteps(flow, ctx, 'camelCase');

export const createWebhookInput = z
  .strictObject(flowFields)
  .partial()
  .required({ name: true })
  .extend({ ...flowWorkspaceFields, steps: flowFields.steps.default([]) })
  .superRefine(checkSnakeSteps);

export const updateWebhookInput = z
  .strictObject({ ...flowFields, workspace: workspace().optional() })
  .partial()
  .superRefine(checkSnakeSteps);

/** REST's validated body under the camelCase names: the steps' fields renamed too, the event filters' stored keys kept. */
const renamedCreate = ({ steps, ...flow }: z.output<typeof createWebhookInput>) => ({ ...camelKeys(flow), steps: steps.map(camelKeys) });
const renamedUpdate = ({ steps, ...flow }: z.output<typeof updateWebhookInput>) => ({ ...camelKeys(flow), ...(steps ? { steps: steps.map(camelKeys) } : {}) });

/**
 * The flow's fields camelCased, as GraphQL's inputs (derived from them) send them: the steps'
 * fields too, as the entity names them; the event filters answer the keys they are stored with.
 */
const camelFlowFields = {
  ...camelKeys(flowFields),
  steps: stepList(camelStep),
  eventFilters: z.strictObject(camelKeys(eventFiltersWrite.shape)).transform((filters) => snakeKeys(filters) as EventFiltersWrite),
};

/** Create and update under both namings; the service works with camelCase values. */
export const createWebhookWrite = {
  snake_case: createWebhookInput,
  camelCase: z
    .strictObject(camelFlowFields)
    .partial()
    .required({ name: true })
    .extend({ ...flowWorkspaceFields, steps: camelFlowFields.steps.default([]) })
    .superRefine(checkCamelSteps),
  renamed: renamedCreate,
};
export const updateWebhookWrite = {
  snake_case: updateWebhookInput,
  camelCase: z
    .strictObject({ ...camelFlowFields, workspace: workspace().optional() })
    .partial()
    .superRefine(checkCamelSteps),
  renamed: renamedUpdate,
};

export const listWebhooksInput = z.object({ workspace: listedWorkspace() });

/** Copy an integration template into the caller's company (optional workspace and name). */
export const useTemplateInput = z.strictObject({
  workspace: workspace(),
  name: requiredText(200).optional(),
});
