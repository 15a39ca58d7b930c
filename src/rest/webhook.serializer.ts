import { z } from 'zod';
import { flowContract, type WebhookFlowView } from '../services/flows/flow.contract';
import { restShape } from './contract-shape';

/** Webhook flow, interface 2.5, derived from its contract: its steps and latest 20 executions inline, newest first. */
const flow = restShape(flowContract);
export const flowShape = flow.schema;

/** A flow and its signing secret: the answers to create, rotate-secret and a template's use, never a read. */
export const flowWithSecretShape = flowShape
  .extend({
    secret: z
      .string()
      .startsWith('whsec_')
      .meta({ examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] }),
  })
  .meta({ id: 'WebhookFlowWithSecret' });

export const serializeFlow = (view: WebhookFlowView) => flow.serialize(view);

/** The answers that make a secret carry it in their view. */
export const serializeFlowWithSecret = (view: WebhookFlowView) => ({ ...serializeFlow(view), secret: view.secret });
