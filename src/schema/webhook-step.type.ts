import { WebhookMethod } from './webhook.enum';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { WebhookStep } from '../entities';

/** One HTTP request of a flow, run in `stepNumber` order after `dependsOnStep` succeeded. */
@ObjectType('WebhookStep', { simpleResolvers: true, description: 'One HTTP request of a flow.' })
export class WebhookStepType {
  @Field(() => ID, { description: 'Unique id (UUID).' })
  id!: string;

  @Field(() => Int, { description: 'Position of the step in the flow.' })
  stepNumber!: number;

  @Field({ description: 'May hold {{placeholders}}, filled at run time.' })
  webhookUrl!: string;

  @Field(() => WebhookMethod, { description: 'HTTP method.' })
  webhookMethod!: WebhookMethod;

  @Field(() => Int, { description: 'Seconds per request.' })
  webhookTimeout!: number;

  @Field(() => Int, { description: 'Retries of the step within one attempt, 0 to 10.' })
  retryLimit!: number;

  @Field(() => Int, { description: 'Seconds for the step overall.' })
  timeout!: number;

  @Field(() => GraphQLJSONObject, { description: 'Query parameters, key to value; may hold {{placeholders}}.' })
  webhookUrlParams!: Record<string, string>;

  @Field(() => GraphQLJSONObject, { description: 'Request headers, key to value; may hold {{placeholders}}.' })
  webhookHeaders!: Record<string, string>;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Request body, any JSON; may hold {{placeholders}}.' })
  webhookBody!: unknown;

  @Field(() => Int, { nullable: true, description: 'StepNumber of an earlier step that must succeed first; null for none.' })
  dependsOnStep!: number | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'JSON Logic rule over {status, headers, body}; null means HTTP 2xx.' })
  successCondition!: unknown;

  @Field({ description: 'When the record was created.' })
  createdAt!: Date;

  @Field({ description: 'When the record last changed.' })
  updatedAt!: Date;
}

export function toWebhookStepType(s: WebhookStep): WebhookStepType {
  return {
    id: s.id,
    stepNumber: s.stepNumber,
    webhookUrl: s.webhookUrl,
    webhookMethod: s.webhookMethod as WebhookMethod,
    webhookTimeout: s.webhookTimeout,
    retryLimit: s.retryLimit,
    timeout: s.timeout,
    webhookUrlParams: s.webhookUrlParams,
    webhookHeaders: s.webhookHeaders,
    webhookBody: s.webhookBody ?? null,
    dependsOnStep: s.dependsOnStep,
    successCondition: s.successCondition ?? null,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
