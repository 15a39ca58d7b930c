import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { WebhookStep } from '../entities';

/** One HTTP request of a flow, run in `stepNumber` order after `dependsOnStep` succeeded. */
@ObjectType('WebhookStep', { simpleResolvers: true })
export class WebhookStepType {
  @Field(() => ID)
  id!: string;

  @Field(() => Int)
  stepNumber!: number;

  @Field({ description: 'May hold {{placeholders}}, filled at run time.' })
  webhookUrl!: string;

  @Field()
  webhookMethod!: string;

  @Field(() => Int, { description: 'Seconds per request.' })
  webhookTimeout!: number;

  @Field(() => Int)
  retryLimit!: number;

  @Field(() => Int, { description: 'Seconds for the step overall.' })
  timeout!: number;

  @Field(() => GraphQLJSONObject)
  webhookUrlParams!: Record<string, string>;

  @Field(() => GraphQLJSONObject)
  webhookHeaders!: Record<string, string>;

  @Field(() => GraphQLJSON, { nullable: true })
  webhookBody!: unknown;

  @Field(() => Int, { nullable: true })
  dependsOnStep!: number | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'JSON Logic rule over {status, headers, body}; null means HTTP 2xx.' })
  successCondition!: unknown;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}

export function toWebhookStepType(s: WebhookStep): WebhookStepType {
  return {
    id: s.id,
    stepNumber: s.stepNumber,
    webhookUrl: s.webhookUrl,
    webhookMethod: s.webhookMethod,
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
