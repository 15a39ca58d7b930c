import { Arg, Args, ArgsType, Ctx, Field, ID, Mutation, Query, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { unboundedList } from '../graphql/limits';
import { idFilter } from '../graphql/subscriptions';
import { CreateAgentScenarioInput, ReplayCallInput, RunAgentTestsInput, UpdateAgentScenarioInput } from '../schema/agent-test.input';
import { AgentScenarioType, AgentTestRunType, toScenarioType, toTestRunType } from '../schema/agent-test.type';
import type { ReplayInput, ScenarioCreateInput, ScenarioUpdateInput, StartTestRunInput } from '../services/agent-tests/scenario.input';
import type { ScenarioService } from '../services/agent-tests/scenario.service';
import type { TestRunService } from '../services/agent-tests/test-run.service';
import type { Topics } from '../services/platform/events';
import type { RateLimitService } from '../services/platform/rate-limit.service';
import { foundOrNull } from '../graphql/lookup';

type RunEvent = Topics['agent.test-run.updated'];

@ArgsType()
export class AgentTestRunUpdatedArgs {
  @Field(() => ID, { nullable: true, description: 'Only this run.' })
  runId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only runs of this agent.' })
  agentId?: string | null;
}

/** Agent test scenarios, runs and call replays (docs/agents.md, "Test suites"), over the same services and inputs as REST. */
@Resolver()
export class AgentTestResolver {
  constructor(
    private readonly scenarios: ScenarioService,
    private readonly runs: TestRunService,
    private readonly rateLimits: RateLimitService,
  ) {}

  @Query(() => [AgentScenarioType], { complexity: unboundedList, description: "An agent's test scenarios, oldest first." })
  async agentScenarios(@Arg('agentId', () => ID, { description: 'The agent.' }) agentId: string, @Ctx() { caller }: GraphQLContext): Promise<AgentScenarioType[]> {
    return (await this.scenarios.list(caller, agentId)).map(toScenarioType);
  }

  @Query(() => AgentScenarioType, { nullable: true, description: 'One test scenario; null when there is none with this id.' })
  async agentScenario(@Arg('id', () => ID, { description: 'The scenario id.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<AgentScenarioType | null> {
    return foundOrNull(this.scenarios.get(caller, id).then(toScenarioType));
  }

  @Mutation(() => AgentScenarioType, { description: 'Adds a test scenario to one of your agents.' })
  async createAgentScenario(
    @Arg('agentId', () => ID, { description: 'The agent.' }) agentId: string,
    @Arg('input', () => CreateAgentScenarioInput, { description: 'The scenario.' }) input: ScenarioCreateInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<AgentScenarioType> {
    return toScenarioType(await this.scenarios.create(caller, agentId, input));
  }

  @Mutation(() => AgentScenarioType, { description: 'Replaces the fields given of a test scenario.' })
  async updateAgentScenario(
    @Arg('id', () => ID, { description: 'The scenario id.' }) id: string,
    @Arg('input', () => UpdateAgentScenarioInput, { description: 'The fields to replace.' }) input: ScenarioUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<AgentScenarioType> {
    return toScenarioType(await this.scenarios.update(caller, id, input));
  }

  @Mutation(() => ID, { description: 'Deletes a test scenario (runs keep their results). Answers the id.' })
  async deleteAgentScenario(@Arg('id', () => ID, { description: 'The scenario id.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<string> {
    await this.scenarios.delete(caller, id);
    return id;
  }

  @Mutation(() => AgentTestRunType, { description: "Runs an agent's scenarios as simulated calls; answers the queued run (follow it with agentTestRunUpdated). Rate limited like makeCall." })
  async runAgentTests(
    @Arg('agentId', () => ID, { description: 'The agent.' }) agentId: string,
    @Arg('input', () => RunAgentTestsInput, { nullable: true, description: 'Which scenarios, which version; all of the draft when left out.' }) input: StartTestRunInput | null,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<AgentTestRunType> {
    await this.rateLimits.consume(caller.scope, ['make-call']);
    return toTestRunType(await this.runs.start(caller, agentId, input));
  }

  @Mutation(() => AgentTestRunType, { description: "Replays a finished call's caller against an agent version in a simulated call; answers the queued run. Rate limited like makeCall." })
  async replayCall(
    @Arg('id', () => ID, { description: 'The call.' }) id: string,
    @Arg('input', () => ReplayCallInput, { nullable: true, description: 'The version; the draft when left out.' }) input: ReplayInput | null,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<AgentTestRunType> {
    await this.rateLimits.consume(caller.scope, ['make-call']);
    return toTestRunType(await this.runs.replay(caller, id, input));
  }

  @Query(() => AgentTestRunType, { nullable: true, description: 'One test run; null when there is none with this id.' })
  async agentTestRun(@Arg('id', () => ID, { description: 'The run id.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<AgentTestRunType | null> {
    return foundOrNull(this.runs.get(caller, id).then(toTestRunType));
  }

  @Query(() => [AgentTestRunType], { complexity: unboundedList, description: "An agent's test runs and replays, newest first (the latest 50)." })
  async agentTestRuns(@Arg('agentId', () => ID, { description: 'The agent.' }) agentId: string, @Ctx() { caller }: GraphQLContext): Promise<AgentTestRunType[]> {
    return (await this.runs.list(caller, agentId)).map(toTestRunType);
  }

  @Subscription(() => AgentTestRunType, {
    description: "A test run of your company was queued, finished a scenario, or ended. Payload: the run's current state.",
    subscribe: ({ args, context }: SubscribeResolverData<unknown, AgentTestRunUpdatedArgs, GraphQLContext>) =>
      context.events('agent.test-run.updated', (event) => idFilter(args.runId, event.runId) && idFilter(args.agentId, event.agentId)),
  })
  async agentTestRunUpdated(@Root() event: RunEvent, @Args() _filters: AgentTestRunUpdatedArgs, @Ctx() context: GraphQLContext): Promise<AgentTestRunType> {
    return toTestRunType(await context.readForEvent('agent.test-run.updated', event));
  }
}
