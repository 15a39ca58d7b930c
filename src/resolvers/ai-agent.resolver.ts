import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { foundOrNull } from '../graphql/lookup';
import { unboundedList } from '../graphql/limits';
import { CreateAiAgentInput, UpdateAiAgentInput } from '../schema/ai-agent.input';
import { AiAgentType } from '../schema/ai-agent.type';
import { AgentTurnType, TestAgentTurnInput, toAgentTurnType } from '../schema/agent-turn.type';
import type { AgentService } from '../services/agents/agent.service';
import type { AgentCreateInput, AgentUpdateInput } from '../services/agents/agent.input';
import { PlaygroundService } from '../services/conversation/playground.service';
import type { RateLimitService } from '../services/platform/rate-limit.service';

@Resolver(() => AiAgentType)
export class AiAgentResolver {
  constructor(
    private readonly agentService: AgentService,
    private readonly playground: PlaygroundService,
    private readonly rateLimits: RateLimitService,
  ) {}

  @Query(() => AiAgentType, { nullable: true, description: 'One of your agents, or a template; null when there is none with this id.' })
  async aiAgent(@Arg('id', () => ID, { description: 'The agent id.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<AiAgentType | null> {
    return foundOrNull(this.agentService.get(caller, id));
  }

  @Query(() => [AiAgentType], { complexity: unboundedList, description: 'Your agents of one workspace ("default" when left out).' })
  async aiAgents(@Arg('workspace', () => String, { nullable: true, description: 'Workspace slug; `default` when left out.' }) workspace: string | null, @Ctx() { caller }: GraphQLContext): Promise<AiAgentType[]> {
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
    @Arg('input', { description: 'The conversation to answer.' }) input: TestAgentTurnInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<AgentTurnType> {
    await this.rateLimits.consume(caller.scope, [PlaygroundService.limits.testTurn]);
    return toAgentTurnType(await this.playground.testTurn(caller, id, { ...input, dynamicVariables: input.dynamicVariables ?? undefined }));
  }

  @Mutation(() => ID, { description: 'Soft delete; calls made with the agent keep it. Answers the id.' })
  async deleteAiAgent(@Arg('id', () => ID, { description: 'Id of the record.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<string> {
    await this.agentService.delete(caller, id);
    return id;
  }
}
