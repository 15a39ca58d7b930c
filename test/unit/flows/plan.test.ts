import type { FlowDefinition, StepDefinition } from '../../../src/entities/webhook-execution.entity';
import { nextAction, retryPlan, type RunRecord, variableScope } from '../../../src/services/flows/flow-plan';
import { coerce, fillJson, fillText, readPath, unresolvedNames } from '../../../src/services/flows/placeholders';

const step = (stepNumber: number, dependsOnStep: number | null = null): StepDefinition => ({
  stepNumber,
  url: 'https://x.io',
  method: 'POST',
  webhookTimeout: 10,
  retryLimit: 0,
  timeout: 30,
  urlParams: {},
  headers: {},
  body: null,
  dependsOnStep,
  successCondition: null,
});
const flow = (steps: StepDefinition[], extra: Partial<FlowDefinition> = {}): FlowDefinition => ({
  steps,
  variables: [],
  predefinedVariables: [],
  maxRetries: 2,
  retryDelay: 5,
  retryDelayUnit: 'minutes',
  ...extra,
});
const run = (attemptNumber: number, stepNumber: number, status: RunRecord['status'], extracted = {}, retryable = true): RunRecord => ({
  attemptNumber,
  stepNumber,
  status,
  extracted,
  retryable,
});

describe('placeholders', () => {
  it('fill text, typed whole values, keys, and unknown names as empty', () => {
    const scope = { n: 3, o: { a: 1 }, s: 'x', nil: null };
    expect(fillText('{{ n }}-{{o}}-{{s}}-{{nil}}-{{nope}}', scope)).toBe('3-{"a":1}-x--');
    expect(fillJson({ '{{s}}key': ['{{n}}', '{{o}}', 'n={{n}}', 7, null] }, scope)).toEqual({ xkey: [3, { a: 1 }, 'n=3', 7, null] });
  });

  it('never fill from inherited properties, and name the placeholders no source gave', () => {
    const scope = { n: 3, nil: null };
    expect(fillText('[{{constructor}}][{{toString}}]', scope)).toBe('[][]');
    expect(fillJson('{{__proto__}}', scope)).toBe('');
    const templates = ['https://x.io/{{path}}?n={{n}}', { q: '{{query}}' }, { '{{hname}}': '{{n}}' }, { a: ['{{nil}}', { deep: '{{who}} {{constructor}}' }] }];
    expect(unresolvedNames(templates, scope)).toEqual(['constructor', 'hname', 'path', 'query', 'who']);
    expect(unresolvedNames([null, {}, 'plain'], scope)).toEqual([]);
  });

  it('follow dotted paths into record variables; a variable named with a dot wins', () => {
    const scope = { call: { call_status: 'completed', metadata: { plan: 'pro' }, cost: 0.5 }, 'a.b': 'flat', a: { b: 'nested' } };
    expect(fillText('{{call.call_status}} {{call.metadata.plan}} {{call.nope.x}} {{a.b}}', scope)).toBe('completed pro  flat');
    expect(fillJson({ cost: '{{call.cost}}', meta: '{{call.metadata}}' }, scope)).toEqual({ cost: 0.5, meta: { plan: 'pro' } });
  });

  it('read response paths and convert data types', () => {
    const res = { status: 201, headers: { 'x-id': 'h1' }, body: { items: [{ id: 'i1' }], n: '42' } };
    expect([readPath(res, 'status'), readPath(res, 'headers.X-Id'), readPath(res, 'body.items[0].id'), readPath(res, 'body.items.0.id'), readPath(res, 'body.nope.x')]).toEqual([
      201,
      'h1',
      'i1',
      'i1',
      undefined,
    ]);
    expect([coerce('42', 'number'), coerce('4.7', 'integer'), coerce('yes', 'boolean'), coerce({ a: 1 }, 'string'), coerce('abc', 'number'), coerce(null, 'string')]).toEqual([
      42,
      4,
      true,
      '{"a":1}',
      undefined,
      undefined,
    ]);
  });
});

describe('planning', () => {
  const steps = [step(1), step(2, 1), step(3, 2), step(4)];

  it('skips dependents of a failed step and carries on with independent ones', () => {
    expect(nextAction(flow(steps), [run(1, 1, 'failed')], 1)).toMatchObject({ kind: 'run', step: { stepNumber: 4 }, skipped: [{ stepNumber: 2 }, { stepNumber: 3 }] });
    const done = nextAction(flow(steps), [run(1, 1, 'failed'), run(1, 2, 'skipped'), run(1, 3, 'skipped'), run(1, 4, 'success')], 1);
    expect(done).toEqual({ kind: 'done', skipped: [], failedStep: 1 });
  });

  it('starts a new attempt at the first step that has not succeeded', () => {
    const runs = [run(1, 1, 'success'), run(1, 2, 'failed'), run(1, 3, 'skipped'), run(1, 4, 'success')];
    expect(nextAction(flow(steps), runs, 2)).toMatchObject({ kind: 'run', step: { stepNumber: 2 }, skipped: [] });
    expect(retryPlan(flow(steps), runs, 2)).toEqual({ delayMs: 300_000 });
    expect(retryPlan(flow(steps), runs, 3)).toBeNull();
  });

  it('gives no new attempt after a step failed in a way no retry cures, even beside a retryable failure', () => {
    const runs = [run(1, 1, 'failed'), run(1, 2, 'skipped'), run(1, 3, 'skipped'), run(1, 4, 'failed', {}, false)];
    expect(retryPlan(flow(steps), runs, 1)).toBeNull();
    expect(retryPlan(flow(steps), runs.slice(0, 3), 1)).toEqual({ delayMs: 300_000 });
  });

  it('takes values from the trigger, then extracted variables (or their custom value), then predefined ones', () => {
    const definition = flow(steps, {
      predefinedVariables: [
        { name: 'a', value: 'pre' },
        { name: 'b', value: 'pre' },
        { name: 'c', value: 'pre' },
        { name: 'd', value: 'pre' },
      ],
      variables: [
        { name: 'b', stepId: 1, location: 'body.b', type: '', dataType: '', customValue: '' },
        { name: 'c', stepId: 2, location: 'body.c', type: '', dataType: '', customValue: 'custom' },
        { name: 'd', stepId: 2, location: 'body.d', type: '', dataType: '', customValue: '' },
      ],
    });
    const scope = variableScope(definition, { a: 'trigger' }, [run(1, 1, 'success', { b: 'extracted' })]);
    expect(scope).toEqual({ a: 'trigger', b: 'extracted', c: 'custom', d: 'pre' });
  });
});
