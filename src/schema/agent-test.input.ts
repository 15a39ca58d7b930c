import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';
import { DynamicVariableInput } from './call.input';

/**
 * GraphQL inputs of agent test scenarios and runs (docs/agents.md, "Test suites"): the REST
 * bodies' fields camelCased, as the services validate them
 * (`services/agent-tests/scenario.input.ts`), so errors name these fields (`callerTurns[0].say`).
 */

@InputType('CallerTurnInput', { description: 'One step of a scripted caller: exactly one of say, dtmf or silenceMs.' })
export class CallerTurnInput {
  @Field(() => String, { nullable: true, description: 'What the caller says.' })
  say?: string | null;

  @Field(() => Int, { nullable: true, description: "With say: the caller speaks over the agent's last turn this many ms into it." })
  interruptAfterMs?: number | null;

  @Field(() => String, { nullable: true, description: 'Keys the caller presses, in order (0-9, *, #, A-D).' })
  dtmf?: string | null;

  @Field(() => Int, { nullable: true, description: "A silence of this many ms (it passes at once; the agent's reminders and silence hang-up come as they would)." })
  silenceMs?: number | null;
}

@InputType('CallerPersonaInput', { description: 'A caller the model plays.' })
export class CallerPersonaInput {
  @Field({ description: 'Who the caller is and what they want.' })
  prompt!: string;

  @Field(() => Int, { nullable: true, description: "The caller's turns before they hang up (1-50, default 6)." })
  maxTurns?: number | null;
}

@InputType('ScenarioCriterionInput', { description: 'What the scenario\'s call must show; the fields each type takes are in docs/agents.md, "Criteria".' })
export class ScenarioCriterionInput {
  @Field({ description: 'tool_called, ended_by, transcript_contains, transcript_not_contains, outcome, max_turns, max_latency_ms or judge.' })
  type!: string;

  @Field(() => String, { nullable: true, description: 'tool_called: the tool.' })
  name?: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'tool_called: arguments the call must hold, with these values.' })
  arguments?: Record<string, unknown> | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'ended_by: agent or caller; outcome: the value expected; max_turns, max_latency_ms: the limit.' })
  value?: unknown;

  @Field(() => String, { nullable: true, description: 'transcript_contains, transcript_not_contains: the text (any case).' })
  text?: string | null;

  @Field(() => String, { nullable: true, description: 'outcome: the post-call outcome.' })
  key?: string | null;

  @Field(() => String, { nullable: true, description: 'judge: the rubric the model grades the call by.' })
  rubric?: string | null;
}

@InputType('CreateAgentScenarioInput', { description: 'A test scenario: a scripted caller or a persona, and criteria.' })
export class CreateAgentScenarioInput {
  @Field({ description: 'Name of the scenario.' })
  name!: string;

  @Field(() => [CallerTurnInput], { nullable: true, description: "The caller's script (or callerPersona)." })
  callerTurns?: CallerTurnInput[] | null;

  @Field(() => CallerPersonaInput, { nullable: true, description: 'The caller a model plays (or callerTurns).' })
  callerPersona?: CallerPersonaInput | null;

  @Field(() => [DynamicVariableInput], { nullable: true, description: "The call's dynamic variables." })
  dynamicVariables?: object[] | null;

  @Field(() => [ScenarioCriterionInput], { nullable: true, description: 'What the call must show.' })
  criteria?: ScenarioCriterionInput[] | null;
}

@InputType('UpdateAgentScenarioInput', { description: 'The fields to replace; callerTurns replaces a persona, callerPersona a script.' })
export class UpdateAgentScenarioInput {
  @Field(() => String, { nullable: true, description: 'Name of the scenario.' })
  name?: string | null;

  @Field(() => [CallerTurnInput], { nullable: true, description: "The caller's script." })
  callerTurns?: CallerTurnInput[] | null;

  @Field(() => CallerPersonaInput, { nullable: true, description: 'The caller a model plays.' })
  callerPersona?: CallerPersonaInput | null;

  @Field(() => [DynamicVariableInput], { nullable: true, description: "The call's dynamic variables." })
  dynamicVariables?: object[] | null;

  @Field(() => [ScenarioCriterionInput], { nullable: true, description: 'What the call must show.' })
  criteria?: ScenarioCriterionInput[] | null;
}

@InputType('RunAgentTestsInput', { description: 'Which scenarios to run, against which version.' })
export class RunAgentTestsInput {
  @Field(() => Int, { nullable: true, description: 'A published version; null: the draft.' })
  version?: number | null;

  @Field(() => [ID], { nullable: true, description: "Only these scenarios; null: all of the agent's." })
  scenarioIds?: string[] | null;
}

@InputType('ReplayCallInput', { description: 'The agent version to replay the call against.' })
export class ReplayCallInput {
  @Field(() => Int, { nullable: true, description: 'A published version; null: the draft.' })
  version?: number | null;
}
