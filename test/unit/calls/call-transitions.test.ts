import { contactStatusOf, PREDECESSORS, transitionFields } from '../../../src/services/calls/call-transitions';

// What each provider update writes, decided before the statement merges it with the call as
// stored (call.store.ts, `applyTransition`; the merge itself: test/service/calls/lifecycle.test.ts).

const at = new Date('2026-11-23T15:00:00Z');

describe('transitionFields', () => {
  it('keeps a live call’s timing and reason: ringing writes its status alone', () => {
    expect(transitionFields({ status: 'ringing', at, disconnectReason: 'ignored while live' })).toEqual({
      status: 'ringing',
      predecessors: ['pstn-queued'],
      at,
      startedAt: null,
      answeredAt: null,
      endedAt: null,
      durationS: null,
      unansweredDurationS: null,
      disconnectReason: null,
      fallbackReason: null,
      contactStatus: 'in-progress',
    });
  });

  it('starts the call when it is answered (in-progress)', () => {
    expect(transitionFields({ status: 'in-progress', at })).toMatchObject({ startedAt: at, answeredAt: null, endedAt: null, durationS: null, unansweredDurationS: null });
  });

  it('ends a completed call: its start is the stored one, else now; its duration the provider’s, else measured, else 0', () => {
    expect(transitionFields({ status: 'completed', at })).toMatchObject({
      startedAt: null,
      answeredAt: at,
      endedAt: at,
      durationS: null,
      unansweredDurationS: 0,
      fallbackReason: 'completed',
      contactStatus: 'picked-up',
    });
    expect(transitionFields({ status: 'completed', at, durationS: 42 })).toMatchObject({ durationS: 42, unansweredDurationS: 0 });
  });

  it.each(['busy', 'no-answer', 'canceled', 'failed'] as const)('ends a %s call never answered here: no start of its own, 0 s unless one is stored', (status) => {
    expect(transitionFields({ status, at })).toMatchObject({ startedAt: null, answeredAt: null, endedAt: at, unansweredDurationS: 0, fallbackReason: status });
  });

  it('gives an ending call the update’s reason over any recorded one, and its status when there is none', () => {
    expect(transitionFields({ status: 'failed', at, disconnectReason: 'provider_error' })).toMatchObject({
      disconnectReason: 'provider_error',
      fallbackReason: 'failed',
      contactStatus: 'unreachable',
    });
    expect(transitionFields({ status: 'busy', at })).toMatchObject({ disconnectReason: null, fallbackReason: 'busy' });
  });

  it('mirrors a call ended on a machine as voicemail on its contact', () => {
    expect(transitionFields({ status: 'completed', at, disconnectReason: 'voicemail_reached' }).contactStatus).toBe('voicemail');
    expect(contactStatusOf('in-progress', 'voicemail_reached')).toBe('in-progress');
  });

  it('allows each status only from the statuses before it', () => {
    for (const [status, before] of Object.entries(PREDECESSORS)) expect(transitionFields({ status: status as keyof typeof PREDECESSORS, at }).predecessors).toBe(before);
    expect(PREDECESSORS.completed).not.toContain('completed');
  });
});
