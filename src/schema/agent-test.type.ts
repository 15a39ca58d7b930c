import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { dynamicVariable } from '../services/calls/call.contract';
import type { ScenarioView } from '../services/agent-tests/scenario.service';
import type { TestRunView } from '../services/agent-tests/test-run.contract';
import { AgentToolCallType } from './agent-turn.type';
import { namedObjectType } from './contract.type';

/** GraphQL types of agent test scenarios and runs (docs/agents.md, "Test suites"), over the services' views. */

@ObjectType('CallerTurn', { description: 'One step of a scripted caller: one of say, dtmf or silenceMs.' })
export class CallerTurnType {
  @Field(() => String, { nullable: true, description: 'What the caller says.' })
  say?: string;

  @Field(() => Int, { nullable: true, description: "With say: spoken over the agent's last turn this many ms into it." })
  interruptAfterMs?: number;

  @Field(() => String, { nullable: true, description: 'Keys pressed, in order.' })
  dtmf?: string;

  @Field(() => Int, { nullable: true, description: 'A silence, in ms.' })
  silenceMs?: number;
}

@ObjectType('CallerPersona', { description: 'A caller the model plays.' })
export class CallerPersonaType {
  @Field({ description: 'Who the caller is and what they want.' })
  prompt!: string;

  @Field(() => Int, { description: "The caller's turns before they hang up." })
  maxTurns!: number;
}

@ObjectType('AgentScenario', { description: 'A test scenario of an agent: a simulated caller and what the call must show.' })
export class AgentScenarioType {
  @Field(() => ID, { description: 'Unique id (UUID).' })
  id!: string;

  @Field(() => ID, { description: 'The agent.' })
  agentId!: string;

  @Field({ description: 'Name of the scenario.' })
  name!: string;

  @Field(() => [CallerTurnType], { nullable: true, description: "The caller's script; null for a persona." })
  callerTurns!: CallerTurnType[] | null;

  @Field(() => CallerPersonaType, { nullable: true, description: 'The caller a model plays; null for a script.' })
  callerPersona!: CallerPersonaType | null;

  @Field(() => [namedObjectType(dynamicVariable)], { description: "The call's dynamic variables." })
  dynamicVariables!: { name: string; value: string }[];

  @Field(() => [GraphQLJSONObject], { description: 'The criteria, as REST shows them ({type, ...}).' })
  criteria!: object[];

  @Field({ description: 'When the record was created.' })
  createdAt!: Date;

  @Field({ description: 'When the record last changed.' })
  updatedAt!: Date;
}

/** The service's view is the GraphQL type, field for field. */
export const toScenarioType = (s: ScenarioView): AgentScenarioType => s;

@ObjectType('AgentCriterionResult', { description: 'One criterion as the run graded it.' })
export class AgentCriterionResultType {
  @Field(() => GraphQLJSONObject, { description: 'The criterion ({type, ...}).' })
  criterion!: object;

  @Field({ description: 'Whether the call met it.' })
  passed!: boolean;

  @Field({ description: 'Why, in a sentence.' })
  reason!: string;
}

@ObjectType('AgentTestLatencies', { description: "The latencies of the agent's answers, in ms." })
export class AgentTestLatenciesType {
  @Field(() => [Int], { description: "Each answer's latency, in order." })
  answersMs!: number[];

  @Field(() => Int, { nullable: true, description: 'The median; null without answers.' })
  medianMs!: number | null;

  @Field(() => Int, { nullable: true, description: 'The slowest; null without answers.' })
  maxMs!: number | null;
}

@ObjectType('ReplaySide', { description: 'One turn of one transcript.' })
export class ReplaySideType {
  @Field({ description: 'Who said it: agent or user.' })
  role!: string;

  @Field({ description: 'What was said.' })
  text!: string;
}

@ObjectType('ReplayTurn', { description: 'The original call and the replay at one turn.' })
export class ReplayTurnType {
  @Field(() => ReplaySideType, { nullable: true, description: "The original call's turn; null past its end." })
  original!: ReplaySideType | null;

  @Field(() => ReplaySideType, { nullable: true, description: "The replay's turn; null past its end." })
  replayed!: ReplaySideType | null;

  @Field({ description: 'Whether both say the same (speaker and words, case and punctuation aside).' })
  same!: boolean;
}

@ObjectType('CallReplay', { description: 'A replay compared with the call it replays.' })
export class CallReplayType {
  @Field(() => ID, { description: 'The call replayed.' })
  callId!: string;

  @Field(() => [ReplayTurnType], { description: 'Both transcripts, turn by turn.' })
  turns!: ReplayTurnType[];

  @Field(() => Int, { nullable: true, description: 'The first turn that differs; null when none does.' })
  divergedAt!: number | null;
}

@ObjectType('AgentScenarioRun', { description: 'One scenario of a test run: its simulated call and its grades.' })
export class AgentScenarioRunType {
  @Field(() => ID, { nullable: true, description: 'The scenario; null for a replay.' })
  scenarioId!: string | null;

  @Field({ description: 'Name of the scenario when the run started.' })
  name!: string;

  @Field({ description: 'One of pending, passed, failed or error (the call could not be run, or the model failed).' })
  status!: string;

  @Field(() => Boolean, { nullable: true, description: 'Whether every criterion passed; null while pending.' })
  passed!: boolean | null;

  @Field(() => [AgentCriterionResultType], { description: 'Each criterion, graded.' })
  criteria!: AgentCriterionResultType[];

  @Field(() => [GraphQLJSONObject], { description: "The call's transcript, turns as a call's transcriptObject holds them." })
  transcript!: object[];

  @Field(() => String, { nullable: true, description: 'How the call ended (a disconnect reason); null while pending.' })
  endReason!: string | null;

  @Field(() => String, { nullable: true, description: 'Who ended the call: agent or caller; null while pending.' })
  endedBy!: string | null;

  @Field(() => [AgentToolCallType], { description: 'Every tool the agent called, in order.' })
  toolCalls!: AgentToolCallType[];

  @Field(() => AgentTestLatenciesType, { description: "The agent's answer latencies." })
  latencies!: AgentTestLatenciesType;

  @Field(() => String, { nullable: true, description: 'Why the call could not be run or the model failed.' })
  error!: string | null;

  @Field(() => Int, { nullable: true, description: 'How long the simulated call and its grading took, in ms; null while pending.' })
  durationMs!: number | null;

  @Field(() => CallReplayType, { nullable: true, description: 'For a replay: both transcripts turn by turn.' })
  replay!: CallReplayType | null;
}

@ObjectType('AgentTestRun', { description: "A run of an agent's scenarios as simulated calls, or a call's replay." })
export class AgentTestRunType {
  @Field(() => ID, { description: 'Unique id (UUID).' })
  id!: string;

  @Field(() => ID, { description: 'The agent.' })
  agentId!: string;

  @Field(() => Int, { nullable: true, description: 'The published version run; null: the draft.' })
  version!: number | null;

  @Field(() => ID, { nullable: true, description: 'The call replayed; null for a run of scenarios.' })
  replayOf!: string | null;

  @Field({ description: 'One of queued, running, passed or failed.' })
  status!: string;

  @Field(() => Boolean, { nullable: true, description: 'Whether every scenario passed; null until the run is over.' })
  passed!: boolean | null;

  @Field(() => Int, { description: 'Scenarios in the run.' })
  total!: number;

  @Field(() => Int, { description: 'Scenarios run so far.' })
  done!: number;

  @Field(() => [AgentScenarioRunType], { description: 'Each scenario, in order.' })
  scenarios!: AgentScenarioRunType[];

  @Field({ description: 'When the run was asked for.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the run ended.' })
  finishedAt!: Date | null;
}

/** The service's view is the GraphQL type, field for field. */
export const toTestRunType = (run: TestRunView): AgentTestRunType => run;
