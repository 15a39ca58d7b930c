import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { WebhookExecution } from '../entities';
import { ConnectionType } from './connection.type';
import { ExecutionStatus } from './webhook.enum';

/** One run of a flow, across its attempts. */
@ObjectType('WebhookExecution', { simpleResolvers: true })
export class WebhookExecutionType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  flowId!: string;

  @Field(() => ExecutionStatus)
  status!: ExecutionStatus;

  @Field(() => Int)
  attemptNumber!: number;

  @Field(() => GraphQLJSONObject, { description: 'The variables the flow was triggered with.' })
  variables!: Record<string, unknown>;

  @Field(() => Date, { nullable: true })
  executedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  nextRetryAt!: Date | null;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => String, { nullable: true })
  errorMessage!: string | null;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}

export const WebhookExecutionConnection = ConnectionType('WebhookExecution', WebhookExecutionType);

export function toWebhookExecutionType(e: WebhookExecution): WebhookExecutionType {
  return {
    id: e.id,
    flowId: e.flow.id,
    status: e.status as ExecutionStatus,
    attemptNumber: e.attemptNumber,
    variables: e.variables,
    executedAt: e.executedAt,
    nextRetryAt: e.nextRetryAt,
    finishedAt: e.finishedAt,
    errorMessage: e.errorMessage,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}
