import { z } from 'zod';
import { camelKeys, snakeKeys } from '../shared/naming';
import { type EventFiltersWrite, eventFiltersWrite, flowFields, flowWorkspaceFields, stepList, stepWrite } from './flow.contract';
import { listedWorkspace, requiredText, workspace } from '../shared/common.input';

/** A step as the service validates it: its fields camelCased, as the entity names them. */
const camelStep = z.strictObject(camelKeys(stepWrite.shape));
export type StepWrite = z.output<typeof camelStep>;

/** What the rules across a flow's fields read. */
interface FlowRules {
  steps?: StepWrite[];
  variables?: { stepId: number }[];
}

/**
 * Step numbers unique; a dependency names an earlier step; a variable names a step. Without
 * `steps` (a partial update) the service checks the variables against the stored steps.
 */
function checkSteps(flow: FlowRules, ctx: z.RefinementCtx): void {
  if (!flow.steps) return;
  const numbers = new Set<number>();
  flow.steps.forEach((s, i) => {
    if (numbers.has(s.stepNumber)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'stepNumber'], message: 'Step numbers must be unique' });
    numbers.add(s.stepNumber);
  });
  flow.steps.forEach((s, i) => {
    if (s.dependsOnStep != null && (s.dependsOnStep >= s.stepNumber || !numbers.has(s.dependsOnStep))) {
      ctx.addIssue({ code: 'custom', path: ['steps', i, 'dependsOnStep'], message: 'Must name an earlier step of this flow' });
    }
  });
  flow.variables?.forEach((v, i) => {
    if (!numbers.has(v.stepId)) ctx.addIssue({ code: 'custom', path: ['variables', i, 'stepId'], message: 'Must name a step of this flow' });
  });
}

/** REST's documented bodies, in snake_case (interface 2.5 names the variables in camelCase). */
export const createWebhookInput = z
  .strictObject(flowFields)
  .partial()
  .required({ name: true })
  .extend({ ...flowWorkspaceFields, steps: flowFields.steps.default([]) });

export const updateWebhookInput = z.strictObject({ ...flowFields, workspace: workspace().optional() }).partial();

/**
 * The flow's fields as the service validates them: camelCased, as GraphQL's inputs (derived
 * from them) send them and REST's body is renamed at its edge; the steps' fields too, as the
 * entity names them; the event filters answer the keys they are stored with.
 */
const camelFlowFields = {
  ...camelKeys(flowFields),
  steps: stepList(camelStep),
  eventFilters: z.strictObject(camelKeys(eventFiltersWrite.shape)).transform((filters) => snakeKeys(filters) as EventFiltersWrite),
};

export const createWebhookWrite = z
  .strictObject(camelFlowFields)
  .partial()
  .required({ name: true })
  .extend({ ...flowWorkspaceFields, steps: camelFlowFields.steps.default([]) })
  .superRefine(checkSteps);
export const updateWebhookWrite = z
  .strictObject({ ...camelFlowFields, workspace: workspace().optional() })
  .partial()
  .superRefine(checkSteps);

/** What `WebhookService.create` and `update` take (and validate). */
export type WebhookCreateInput = z.input<typeof createWebhookWrite>;
export type WebhookUpdateInput = z.input<typeof updateWebhookWrite>;

export const listWebhooksInput = z.object({ workspace: listedWorkspace() });
export type WebhookListInput = z.input<typeof listWebhooksInput>;

/** Copy an integration template into the caller's company (optional workspace and name). */
export const useTemplateInput = z.strictObject({
  workspace: workspace(),
  name: requiredText(200).optional(),
});
export type UseTemplateInput = z.input<typeof useTemplateInput>;
