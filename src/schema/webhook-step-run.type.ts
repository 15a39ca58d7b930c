import { StepRunStatus } from './webhook.enum';
import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { WebhookStepRun } from '../entities';

/** One step of one attempt of an execution: what was sent, what came back (excerpts, credentials redacted). */
@ObjectType('WebhookStepRun', { simpleResolvers: true, description: 'One step of one attempt of an execution: what was sent, what came back (excerpts, credentials redacted).' })
export class WebhookStepRunType {
  @Field(() => Int, { description: 'Attempt, from 1.' })
  attemptNumber!: number;

  @Field(() => Int, { description: 'Position of the step in the flow.' })
  stepNumber!: number;

  @Field(() => StepRunStatus, { description: 'Outcome of the step in this attempt.' })
  status!: StepRunStatus;

  @Field(() => Int, { description: 'Requests sent: 1 plus the retries within the attempt.' })
  tries!: number;

  @Field(() => Date, { nullable: true, description: 'When the step started; null until then.' })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it finished; null until then.' })
  finishedAt!: Date | null;

  @Field(() => Int, { nullable: true, description: 'Milliseconds the step took; null while running.' })
  durationMs!: number | null;

  @Field(() => String, { nullable: true, description: 'Why the step failed; null when it did not.' })
  error!: string | null;

  @Field(() => [String], { description: 'The errors of the tries before the last.' })
  tryErrors!: string[];

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Method, URL, headers (redacted), body excerpt.' })
  request!: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Status, headers and body excerpts.' })
  response!: Record<string, unknown> | null;

  @Field(() => [String], { description: 'Placeholders of the request that no source gave a value: sent as empty text.' })
  unresolvedVariables!: string[];
}

export function toWebhookStepRunType(r: WebhookStepRun): WebhookStepRunType {
  return {
    attemptNumber: r.attemptNumber,
    stepNumber: r.stepNumber,
    status: r.status as StepRunStatus,
    tries: r.tries,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    durationMs: r.durationMs,
    error: r.error,
    tryErrors: r.tryErrors,
    request: (r.request as Record<string, unknown> | null) ?? null,
    response: (r.response as Record<string, unknown> | null) ?? null,
    unresolvedVariables: r.unresolvedVariables,
  };
}
