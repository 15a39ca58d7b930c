import { flowFields, flowInputOverride, flowWorkspaceFields } from '../services/flows/flow.contract';
import type { WebhookCreateInput, WebhookUpdateInput } from '../services/flows/flow.input';
import { contractInputType } from './contract.type';

/** Partial update; `steps`, `variables` and `predefinedVariables`, when sent, replace the old ones. */
export const UpdateWebhookInput = contractInputType<WebhookUpdateInput>(
  'UpdateWebhookInput',
  'Partial update: steps, variables and predefinedVariables, when sent, replace the stored ones whole.',
  { ...flowFields, ...flowWorkspaceFields },
  flowInputOverride,
);

export const CreateWebhookInput = contractInputType<WebhookCreateInput>(
  'CreateWebhookInput',
  'A new flow; its signing secret is made by the service.',
  { ...flowFields, ...flowWorkspaceFields },
  { ...flowInputOverride, required: ['name'] },
);
