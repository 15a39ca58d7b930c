import { conversationRelayTwiml, relayUrl } from '../../../src/services/telephony/conversation-relay';

const CALL = '0b6f9c1e-3a52-4d7e-9a57-2f1d0c8e4b11';
const TOKEN = 'a.b+c/d';

describe('the ConversationRelay TwiML', () => {
  it('connects the call to our relay websocket, its URL carrying the session token, with the action callback and the call id', () => {
    expect(conversationRelayTwiml('https://sb.example.com', CALL, { language: 'fr-FR', interruptionSensitivity: 50, welcomeGreeting: '' }, TOKEN)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        `<Connect action="https://sb.example.com/v1/telephony/twilio/relay-ended?call_id=${CALL}">` +
        '<ConversationRelay url="wss://sb.example.com/v1/telephony/twilio/relay?token=a.b%2Bc%2Fd" language="fr-FR" dtmfDetection="true" interruptible="any" interruptSensitivity="medium">' +
        `<Parameter name="call_id" value="${CALL}"/>` +
        '</ConversationRelay></Connect></Response>',
    );
  });

  it("has Twilio say the agent's welcome greeting, and tells the session so with a parameter", () => {
    const twiml = conversationRelayTwiml('https://sb.example.com', CALL, { language: 'en-US', interruptionSensitivity: 50, welcomeGreeting: 'Hi Ada, "Acme" here & ready.' }, TOKEN);
    expect(twiml).toContain('welcomeGreeting="Hi Ada, &quot;Acme&quot; here &amp; ready."');
    expect(twiml).toContain(`<Parameter name="call_id" value="${CALL}"/><Parameter name="welcome_greeting" value="spoken"/>`);
  });

  it("asks for Twilio's info events (who speaks, what was played) when told to", () => {
    const twiml = conversationRelayTwiml('https://sb.example.com', CALL, { language: 'fr-FR', interruptionSensitivity: 50, welcomeGreeting: '' }, TOKEN, 'new', true);
    expect(twiml).toContain('interruptSensitivity="medium" events="speaker-events tokens-played">');
  });

  it('uses ws:// for a plain-http public base URL', () => {
    expect(relayUrl('http://localhost:3000', TOKEN)).toBe('ws://localhost:3000/v1/telephony/twilio/relay?token=a.b%2Bc%2Fd');
    expect(conversationRelayTwiml('http://localhost:3000', CALL, { language: 'en-US', interruptionSensitivity: 10, welcomeGreeting: '' }, TOKEN)).toContain(
      'url="ws://localhost:3000/v1/telephony/twilio/relay?token=a.b%2Bc%2Fd"',
    );
  });

  it.each([
    [0, 'interruptible="none"', 'interruptSensitivity'],
    [1, 'interruptSensitivity="low"', 'interruptible="none"'],
    [33, 'interruptSensitivity="low"', 'medium'],
    [67, 'interruptSensitivity="high"', 'medium'],
    [100, 'interruptSensitivity="high"', 'interruptible="none"'],
  ])('maps interruption_sensitivity %i to %s', (value, present, absent) => {
    const twiml = conversationRelayTwiml('https://sb.example.com', CALL, { language: 'en-US', interruptionSensitivity: value, welcomeGreeting: '' }, TOKEN);
    expect(twiml).toContain(present);
    expect(twiml).not.toContain(absent);
  });

  it("names the opening of a session that is not the call's first, after the call id, and has Twilio say no welcome greeting in it", () => {
    for (const opening of ['resumed', 'transfer_failed'] as const) {
      const twiml = conversationRelayTwiml('https://sb.example.com', CALL, { language: 'en-US', interruptionSensitivity: 50, welcomeGreeting: 'Hi.' }, TOKEN, opening);
      expect(twiml).toContain(`<Parameter name="call_id" value="${CALL}"/><Parameter name="opening" value="${opening}"/></ConversationRelay>`);
      expect(twiml).not.toContain('welcome');
    }
    expect(conversationRelayTwiml('https://sb.example.com', CALL, { language: 'en-US', interruptionSensitivity: 50, welcomeGreeting: '' }, TOKEN, 'new')).not.toContain('opening');
  });

  it('escapes what it puts in attributes', () => {
    const twiml = conversationRelayTwiml('https://sb.example.com/a&b', 'x"<y>&z', { language: 'en"<&', interruptionSensitivity: 50, welcomeGreeting: '' }, TOKEN);
    expect(twiml).toContain('action="https://sb.example.com/a&amp;b/v1/telephony/twilio/relay-ended?call_id=x%22%3Cy%3E%26z"');
    expect(twiml).toContain('language="en&quot;&lt;&amp;"');
    expect(twiml).toContain('<Parameter name="call_id" value="x&quot;&lt;y>&amp;z"/>');
  });
});
