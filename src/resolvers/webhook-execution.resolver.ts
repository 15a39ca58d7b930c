import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { IDEMPOTENCY_KEY_DESCRIPTION, keyedMutation } from '../graphql/idempotency';
import { idFilter } from '../graphql/subscriptions';
import { WebhookExecutionUpdatedArgs } from '../schema/page.args';
import { WebhookExecutionType } from '../schema/webhook-execution.type';
import { WebhookStepRunType } from '../schema/webhook-step-run.type';
import type { Topics } from '../services/platform/events';
import { FlowRunner } from '../services/flows/flow-runner';
import type { IdempotencyService } from '../services/platform/idempotency.service';
import type { RateLimitService } from '../services/platform/rate-limit.service';
import type { WebhookExecutionService } from '../services/flows/flow-execution.service';

type ExecutionEvent = Topics['webhook.execution.updated'];

const matches = (f: WebhookExecutionUpdatedArgs, e: ExecutionEvent): boolean => idFilter(f.webhookId, e.flowId) && idFilter(f.executionId, e.executionId);

@Resolver(() => WebhookExecutionType)
export class WebhookExecutionResolver {
  constructor(
    private readonly executions: WebhookExecutionService,
    private readonly flows: FlowRunner,
    private readonly rateLimits: RateLimitService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Mutation(() => WebhookExecutionType, {
    description: 'Starts an execution of one of your flows with these trigger variables; answers it as stored: IN_PROGRESS when this replica sends its first step at once, SCHEDULED when a job will.',
  })
  async triggerWebhook(
    @Arg('id', () => ID, { description: 'Id of the record.' }) id: string,
    @Arg('variables', () => GraphQLJSONObject, { nullable: true, description: 'Trigger variables: the first source of `{{name}}` placeholders.' }) variables: Record<string, unknown> | null,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION }) idempotencyKey: string | null,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<WebhookExecutionType> {
    await this.rateLimits.consume(caller.scope, [FlowRunner.limits.trigger]);
    return keyedMutation(this.idempotency, caller, {
      key: idempotencyKey,
      request: ['triggerWebhook', id, variables ?? {}],
      run: (keyed) => this.flows.trigger(keyed, id, { variables: variables ?? {} }),
      reload: (executionId) => this.executions.getById(caller, executionId),
    });
  }

  @FieldResolver(() => [WebhookStepRunType], { description: 'The step log: every step of every attempt, in attempt then step order.' })
  async stepLog(@Root() execution: WebhookExecutionType, @Ctx() { loaders }: GraphQLContext): Promise<WebhookStepRunType[]> {
    return loaders.stepLogs.load(execution.id);
  }

  @Subscription(() => WebhookExecutionType, {
    description: "An execution of one of your flows was created or changed status. Payload: the execution's current state.",
    subscribe: ({ args, context }: SubscribeResolverData<unknown, WebhookExecutionUpdatedArgs, GraphQLContext>) => context.events('webhook.execution.updated', (event) => matches(args, event)),
  })
  async webhookExecutionUpdated(@Root() event: ExecutionEvent, @Args() _filters: WebhookExecutionUpdatedArgs, @Ctx() context: GraphQLContext): Promise<WebhookExecutionType> {
    return context.readForEvent('webhook.execution.updated', event);
  }
}
