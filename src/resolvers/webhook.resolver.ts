import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { foundOrNull } from '../graphql/lookup';
import { pageInput, presentFilters } from '../graphql/input';
import { perNode, unboundedList } from '../graphql/limits';
import { type Connection, connectionOf } from '../schema/connection.type';
import { PageArgs } from '../schema/page.args';
import { CreateWebhookInput, UpdateWebhookInput } from '../schema/webhook.input';
import { WebhookFlowType } from '../schema/webhook.type';
import { WebhookExecutionConnection, type WebhookExecutionType } from '../schema/webhook-execution.type';
import { WebhookStepType } from '../schema/webhook-step.type';
import type { WebhookService } from '../services/flows/flow.service';
import type { WebhookCreateInput, WebhookUpdateInput } from '../services/flows/flow.input';

@Resolver(() => WebhookFlowType)
export class WebhookResolver {
  constructor(private readonly webhookService: WebhookService) {}

  @Query(() => WebhookFlowType, { nullable: true, description: 'One of your outbound webhook flows, or an integration template; null when there is none with this id.' })
  async webhook(@Arg('id', () => ID, { description: 'The flow id.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<WebhookFlowType | null> {
    return foundOrNull(this.webhookService.get(caller, id));
  }

  @Query(() => [WebhookFlowType], { complexity: unboundedList, description: 'Your flows of one workspace ("default" when left out).' })
  async webhooks(
    @Arg('workspace', () => String, { nullable: true, description: 'Workspace slug; `default` when left out.' }) workspace: string | null,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<WebhookFlowType[]> {
    return this.webhookService.list(caller, { workspace });
  }

  @Query(() => [WebhookFlowType], { complexity: unboundedList, description: 'Built-in flow templates, copied to be used.' })
  async integrationTemplates(@Ctx() { caller }: GraphQLContext): Promise<WebhookFlowType[]> {
    return this.webhookService.templates(caller);
  }

  @Mutation(() => WebhookFlowType, { description: 'Creates a flow; the answer is the only one that carries its signing `secret`.' })
  async createWebhook(@Arg('input', () => CreateWebhookInput, { description: 'The fields to write.' }) input: WebhookCreateInput, @Ctx() { caller }: GraphQLContext): Promise<WebhookFlowType> {
    return this.webhookService.create(caller, input);
  }

  @Mutation(() => WebhookFlowType, {
    description: "Copies an integration template into your flows, running; the answer is the only one that carries the new flow's signing `secret`. NOT_FOUND for an unknown template.",
  })
  async useIntegrationTemplate(
    @Arg('id', () => ID, { description: 'Id of the integration template.' }) id: string,
    @Arg('name', () => String, { nullable: true, description: "Name of the new flow; the template's when left out." }) name: string | null,
    @Arg('workspace', () => String, { nullable: true, description: 'Workspace slug; `default` when left out.' }) workspace: string | null,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<WebhookFlowType> {
    return this.webhookService.useTemplate(caller, id, presentFilters({ name, workspace }));
  }

  @Mutation(() => WebhookFlowType, { description: 'Partial update; steps, variables and predefinedVariables, when sent, replace the old ones.' })
  async updateWebhook(
    @Arg('id', () => ID, { description: 'Id of the record.' }) id: string,
    @Arg('input', () => UpdateWebhookInput, { description: 'The fields to write.' }) input: WebhookUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<WebhookFlowType> {
    return this.webhookService.update(caller, id, input);
  }

  @Mutation(() => ID, { description: 'Soft delete (status deleted); answers the id.' })
  async deleteWebhook(@Arg('id', () => ID, { description: 'Id of the record.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<string> {
    await this.webhookService.delete(caller, id);
    return id;
  }

  @FieldResolver(() => [WebhookStepType], { description: 'In stepNumber order.' })
  steps(@Root() flow: WebhookFlowType): WebhookStepType[] {
    return flow.steps;
  }

  @FieldResolver(() => WebhookExecutionConnection, { complexity: perNode, description: 'Runs of the flow, newest first.' })
  async executions(@Root() flow: WebhookFlowType, @Args() { first, after }: PageArgs, @Ctx() { loaders }: GraphQLContext): Promise<Connection<WebhookExecutionType>> {
    const page = await loaders.flowExecutions.load({ parentId: flow.id, ...pageInput(first, after) });
    return connectionOf({ page, node: (execution) => execution, count: () => loaders.flowExecutionCount.load(flow.id), after });
  }
}
