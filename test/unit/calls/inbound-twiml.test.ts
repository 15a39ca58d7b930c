import { inboundTwiml } from '../../../src/services/calls/inbound/inbound-twiml';
import { TwilioTelephony } from '../../../src/services/telephony/twilio.telephony';

/** The TwiML answers to Twilio's incoming-call webhook, built with the twilio package. */
describe('inboundTwiml', () => {
  const options = { baseUrl: 'http://127.0.0.1:9', accountSid: 'AC1', authToken: 'token', publicBaseUrl: 'https://sb.example.test', relayInfoEvents: true };
  const agent = { language: 'fr-FR', interruptionSensitivity: 80, welcomeGreeting: '' };
  const callId = '6f9619ff-8b86-d011-b42d-00c04fc964ff';

  it('connects an answered call to its agent over ConversationRelay when conversations are on', () => {
    const xml = inboundTwiml({ kind: 'connect', callId, agent }, new TwilioTelephony({ ...options, relayBaseUrl: 'https://sb.example.test' }));
    expect(xml).toContain(`<Connect action="https://sb.example.test/v1/telephony/twilio/relay-ended?call_id=${callId}">`);
    // The session URL carries the call's single-use token (docs/calls.md, "The websocket").
    expect(xml).toMatch(new RegExp(`<ConversationRelay url="wss://sb\\.example\\.test/v1/telephony/twilio/relay\\?token=${callId}\\.[^"]+" language="fr-FR"`));
    expect(xml).toContain('interruptSensitivity="high"');
    expect(xml).toContain(`<Parameter name="call_id" value="${callId}"/>`);
  });

  it('holds the line, as placed calls do, while conversations are off', () => {
    expect(inboundTwiml({ kind: 'connect', callId, agent }, new TwilioTelephony({ ...options, relayBaseUrl: null }))).toBe('<Response><Pause length="60"/></Response>');
  });

  it('rejects, or rejects busy', () => {
    const provider = new TwilioTelephony({ ...options, relayBaseUrl: null });
    expect(inboundTwiml({ kind: 'reject' }, provider)).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Reject/></Response>');
    expect(inboundTwiml({ kind: 'busy', callId }, provider)).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>');
  });
});
