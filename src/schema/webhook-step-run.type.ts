import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { WebhookStepRun } from '../entities';

/** One step of one attempt of an execution: what was sent, what came back (excerpts, credentials redacted). */
@ObjectType('WebhookStepRun', { simpleResolvers: true })
export class WebhookStepRunType {
  @Field(() => Int)
  attemptNumber!: number;

  @Field(() => Int)
  stepNumber!: number;

  @Field({ description: 'running, success, failed or skipped.' })
  status!: string;

  @Field(() => Int, { description: 'Requests sent: 1 plus the retries within the attempt.' })
  tries!: number;

  @Field(() => Date, { nullable: true })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => Int, { nullable: true })
  durationMs!: number | null;

  @Field(() => String, { nullable: true })
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
    status: r.status,
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
