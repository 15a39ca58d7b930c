import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { WebhookExecution } from '../entities';
import { ConnectionType } from './connection.type';
import { ExecutionStatus } from './webhook.enum';

/** One run of a flow, across its attempts. */
@ObjectType('WebhookExecution', { simpleResolvers: true, description: 'One run of a flow, across its attempts.' })
export class WebhookExecutionType {
  @Field(() => ID, { description: 'Unique id (UUID).' })
  id!: string;

  @Field(() => ID, { description: 'Id of the flow run.' })
  flowId!: string;

  @Field(() => ExecutionStatus, { description: 'Where the execution is.' })
  status!: ExecutionStatus;

  @Field(() => Int, { description: 'Attempt, from 1.' })
  attemptNumber!: number;

  @Field(() => GraphQLJSONObject, { description: 'The variables the flow was triggered with.' })
  variables!: Record<string, unknown>;

  @Field(() => Date, { nullable: true, description: 'When the current attempt started; null before the first.' })
  executedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the next attempt starts; null when none is due.' })
  nextRetryAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it finished; null until then.' })
  finishedAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed; null when none failed.' })
  errorMessage!: string | null;

  @Field({ description: 'When the record was created.' })
  createdAt!: Date;

  @Field({ description: 'When the record last changed.' })
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
