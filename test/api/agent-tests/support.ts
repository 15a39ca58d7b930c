import { CALLEE_PERSONA_INTRO } from '../../../src/services/conversation/simulated-callee';
import type { FakeLlm, RecordedRequest, ScriptedReply } from '../../support/fake-llm';
import { okData } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

/** What the fake model answers, by who asks: the agent, the simulated caller, the judge or the post-call analysis. */
export interface ModelScript {
  agent: (lastUser: string, request: RecordedRequest) => ScriptedReply;
  caller?: (turn: number) => string;
  judge?: { passed: boolean; reason: string };
  outcomes?: Record<string, unknown>;
}

const schemaName = (request: RecordedRequest): string | undefined => request.response_format?.json_schema?.name;
export const isCaller = (request: RecordedRequest) => String(request.messages[0]?.content ?? '').startsWith(CALLEE_PERSONA_INTRO);

/** Routes the fake's requests to the script's parts. */
export function scriptModel(llm: FakeLlm, script: ModelScript): void {
  let callerTurns = 0;
  llm.fallback = (request) => {
    if (schemaName(request) === 'scenario_judgement') return { json: script.judge ?? { passed: true, reason: 'Fine.' } };
    if (schemaName(request) === 'post_call_analysis') {
      return { json: { summary: 'A call.', sentiment: 'neutral', task_status: 'completed', task_feedback: 'Done.', outcomes: script.outcomes ?? {} } };
    }
    if (isCaller(request)) return { text: script.caller?.(++callerTurns) ?? 'Okay.' };
    const lastUser = [...request.messages].reverse().find((m: { role: string }) => m.role === 'user');
    return script.agent(String(lastUser?.content ?? ''), request);
  };
}

/** Waits until the run is over, and answers it. */
export async function finishedRun(t: TestApp, key: string, runId: string): Promise<any> {
  return waitFor(
    'the test run to finish',
    async () => {
      const run = okData(await t.request('GET', `/v1/agent-test-runs/${runId}`, { token: key }));
      return run.status === 'passed' || run.status === 'failed' ? run : undefined;
    },
    30_000,
  );
}
