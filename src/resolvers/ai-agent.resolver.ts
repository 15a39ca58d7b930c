import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { foundOrNull } from '../graphql/lookup';
import { pageInput } from '../graphql/input';
import { perNode, unboundedList } from '../graphql/limits';
import { AiAgentVersionConnection, AiAgentVersionType, PublishAiAgentInput } from '../schema/ai-agent-version.type';
import { type Connection, connectionOf } from '../schema/connection.type';
import { PageArgs } from '../schema/page.args';
import type { AgentVersionService } from '../services/agents/agent-version.service';
import { CreateAiAgentInput, UpdateAiAgentInput } from '../schema/ai-agent.input';
import { AiAgentType } from '../schema/ai-agent.type';
import { AgentTurnType, TestAgentTurnInput, toAgentTurnType } from '../schema/agent-turn.type';
import type { AgentService } from '../services/agents/agent.service';
import type { AgentCreateInput, AgentUpdateInput } from '../services/agents/agent.input';
import type { PublishAgentInput } from '../services/agents/agent-version.input';
import { PlaygroundService } from '../services/conversation/playground.service';
import type { RateLimitService } from '../services/platform/rate-limit.service';

@Resolver(() => AiAgentType)
export class AiAgentResolver {
  constructor(
    private readonly agentService: AgentService,
    private readonly agentVersions: AgentVersionService,
    private readonly playground: PlaygroundService,
    private readonly rateLimits: RateLimitService,
  ) {}

  @Query(() => AiAgentType, { nullable: true, description: 'One of your agents, or a template; null when there is none with this id.' })
  async aiAgent(@Arg('id', () => ID, { description: 'The agent id.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<AiAgentType | null> {
    return foundOrNull(this.agentService.get(caller, id));
  }

  @Query(() => [AiAgentType], { complexity: unboundedList, description: 'Your agents of one workspace ("default" when left out).' })
  async aiAgents(
    @Arg('workspace', () => String, { nullable: true, description: 'Workspace slug; `default` when left out.' }) workspace: string | null,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<AiAgentType[]> {
    return this.agentService.list(caller, { workspace });
  }

  @Query(() => [AiAgentType], { complexity: unboundedList, description: 'The built-in agent catalogue.' })
  async aiAgentTemplates(@Ctx() { caller }: GraphQLContext): Promise<AiAgentType[]> {
    return this.agentService.templates(caller);
  }

  @Mutation(() => AiAgentType, { description: 'Creates an agent in a workspace.' })
  async createAiAgent(@Arg('input', () => CreateAiAgentInput, { description: 'The fields to write.' }) input: AgentCreateInput, @Ctx() { caller }: GraphQLContext): Promise<AiAgentType> {
    return this.agentService.create(caller, input);
  }

  @Mutation(() => AiAgentType, { description: 'Partial update of one of your agents.' })
  async updateAiAgent(
    @Arg('id', () => ID, { description: 'Id of the record.' }) id: string,
    @Arg('input', () => UpdateAiAgentInput, { description: 'The fields to write.' }) input: AgentUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<AiAgentType> {
    return this.agentService.update(caller, id, input);
  }

  @Mutation(() => AgentTurnType, { description: "The agent's next turn for a conversation, without a call. Rate limited like makeCall." })
  async testAgentTurn(
    @Arg('id', () => ID, { description: 'Id of the agent.' }) id: string,
    @Arg('input', () => TestAgentTurnInput, { description: 'The conversation to answer.' }) input: TestAgentTurnInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<AgentTurnType> {
    await this.rateLimits.consume(caller.scope, [PlaygroundService.limits.testTurn]);
    return toAgentTurnType(await this.playground.testTurn(caller, id, { ...input, dynamicVariables: input.dynamicVariables ?? undefined }));
  }

  @Mutation(() => AiAgentVersionType, { description: "Publishes the agent's draft as its next version, or an older version again (a rollback); answers the new version." })
  async publishAiAgent(
    @Arg('id', () => ID, { description: 'Id of the agent.' }) id: string,
    @Arg('input', () => PublishAiAgentInput, { nullable: true, description: 'A note, or the version to publish again.' }) input: PublishAgentInput | null,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<AiAgentVersionType> {
    return this.agentVersions.publish(caller, id, input);
  }

  @FieldResolver(() => AiAgentVersionConnection, { complexity: perNode, description: "The agent's published versions, newest first; batched across a list of agents." })
  async versions(@Root() agent: AiAgentType, @Args() { first, after }: PageArgs, @Ctx() { loaders }: GraphQLContext): Promise<Connection<AiAgentVersionType>> {
    const page = await loaders.agentVersions.load({ parentId: agent.id, ...pageInput(first, after) });
    return connectionOf({ page, node: (version) => version, count: () => loaders.agentVersionCount.load(agent.id), after });
  }

  @FieldResolver(() => AiAgentVersionType, { nullable: true, description: 'The latest published version, which calls run unless told another; null when never published.' })
  async publishedVersion(@Root() agent: AiAgentType, @Ctx() { loaders }: GraphQLContext): Promise<AiAgentVersionType | null> {
    return loaders.publishedVersion.load(agent.id);
  }

  @Mutation(() => ID, { description: 'Soft delete; calls made with the agent keep it. Answers the id.' })
  async deleteAiAgent(@Arg('id', () => ID, { description: 'Id of the record.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<string> {
    await this.agentService.delete(caller, id);
    return id;
  }
}
