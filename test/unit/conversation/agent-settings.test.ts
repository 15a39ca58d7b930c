import { engineSettingsOf, variablesOf, voicemailMessageOf } from '../../../src/services/conversation/agent-settings';
import { agent, CALL, CountingOptOut } from '../../api/conversation/support';

const at = new Date('2026-11-27T16:05:09.123Z');

describe('the placeholders of a call', () => {
  it('fill the built-in from, to, direction and now (ISO 8601 UTC, to the second) on every call', () => {
    expect(variablesOf(agent(), CALL, at)).toMatchObject({ from: '+14155552671', to: '+14155550123', direction: 'outgoing', now: '2026-11-27T16:05:09Z' });
    const incoming = { ...CALL, callFrom: '+14155550188', callTo: '+14155552671', callDirection: 'incoming' };
    expect(variablesOf(agent(), incoming, at)).toMatchObject({ from: '+14155550188', to: '+14155552671', direction: 'incoming' });
  });

  it("put the call's own variables over the built-ins, and the built-ins over the agent's defaults", () => {
    const withDefaults = agent({ agentDynamicVariables: { now: 'agent default', direction: 'agent default', firstname: 'there' } });
    const call = { ...CALL, agentDynamicVariables: [{ name: 'direction', value: 'from the call' }] };
    expect(variablesOf(withDefaults, call, at)).toMatchObject({ now: '2026-11-27T16:05:09Z', direction: 'from the call', firstname: 'there' });
  });

  it('are filled in the prompt, the voicemail message and the states', () => {
    const withBuiltIns = agent({
      prompt: 'You call {{to}} from {{from}} ({{direction}}).',
      agentFlow: { states: [{ name: 'greet', prompt: 'Greet {{firstname}} at {{to}}.' }] },
      startingState: 'greet',
    });
    const settings = engineSettingsOf(withBuiltIns, CALL, { optOut: new CountingOptOut() });
    expect(settings.systemPrompt).toContain('You call +14155550123 from +14155552671 (outgoing).');
    expect(settings.states.prompt()).toContain('Greet Ada at +14155550123.');
    expect(voicemailMessageOf({ voicemailMessage: 'Call {{from}} back, {{firstname}}.', agentDynamicVariables: {} }, CALL)).toBe('Call +14155552671 back, Ada.');
  });
});
