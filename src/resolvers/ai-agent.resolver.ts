import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { toFilterInput, toServiceInput } from '../graphql/input';
import { unboundedList } from '../graphql/limits';
import { CreateAiAgentInput, UpdateAiAgentInput } from '../schema/ai-agent.input';
import { AiAgentType, toAiAgentType } from '../schema/ai-agent.type';
import { AgentTurnType, TestAgentTurnInput, toAgentTurnType } from '../schema/agent-turn.type';
import type { AgentService } from '../services/agent.service';
import type { PlaygroundService } from '../services/conversation/playground.service';
import type { RateLimitService } from '../services/rate-limit.service';

@Resolver(() => AiAgentType)
export class AiAgentResolver {
  constructor(
    private readonly agentService: AgentService,
    private readonly playground: PlaygroundService,
    private readonly rateLimits: RateLimitService,
  ) {}

  @Query(() => AiAgentType, { description: 'One of your agents, or a template.' })
  async aiAgent(@Arg('id', () => ID) id: string, @Ctx() { caller }: GraphQLContext): Promise<AiAgentType> {
    return toAiAgentType(await this.agentService.get(caller, id));
  }

  @Query(() => [AiAgentType], { complexity: unboundedList, description: 'Your agents of one workspace ("default" when left out).' })
  async aiAgents(@Arg('workspace', () => String, { nullable: true }) workspace: string | null, @Ctx() { caller }: GraphQLContext): Promise<AiAgentType[]> {
    return (await this.agentService.list(caller, toFilterInput({ workspace }))).map(toAiAgentType);
  }

  @Query(() => [AiAgentType], { complexity: unboundedList, description: 'The built-in agent catalogue.' })
  async aiAgentTemplates(@Ctx() { caller }: GraphQLContext): Promise<AiAgentType[]> {
    return (await this.agentService.templates(caller)).map(toAiAgentType);
  }

  @Mutation(() => AiAgentType)
  async createAiAgent(@Arg('input') input: CreateAiAgentInput, @Ctx() { caller }: GraphQLContext): Promise<AiAgentType> {
    return toAiAgentType(await this.agentService.create(caller, toServiceInput(input)));
  }

  @Mutation(() => AiAgentType)
  async updateAiAgent(
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateAiAgentInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<AiAgentType> {
    return toAiAgentType(await this.agentService.update(caller, id, toServiceInput(input)));
  }

  @Mutation(() => AgentTurnType, { description: "The agent's next turn for a conversation, without a call. Rate limited like makeCall." })
  async testAgentTurn(@Arg('id', () => ID) id: string, @Arg('input') input: TestAgentTurnInput, @Ctx() { caller }: GraphQLContext): Promise<AgentTurnType> {
    await this.rateLimits.consume(caller.scope, ['make-call']);
    return toAgentTurnType(await this.playground.testTurn(caller, id, toServiceInput(input)));
  }

  @Mutation(() => ID, { description: 'Soft delete; calls made with the agent keep it. Answers the id.' })
  async deleteAiAgent(@Arg('id', () => ID) id: string, @Ctx() { caller }: GraphQLContext): Promise<string> {
    await this.agentService.delete(caller, id);
    return id;
  }
}
