import twilio from 'twilio';
import { fakeTwilio, TWILIO_PUBLIC as PUBLIC, TWILIO_SID as SID, TWILIO_TOKEN as TOKEN, twilioProviderEnv } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

/**
 * Inbound calls through Twilio's incoming-call webhook (issue 13, part 1), signed as Twilio
 * signs: HMAC of PUBLIC_BASE_URL + path and the form. One concurrent incoming call and one
 * outgoing call per company, so the busy path is reachable. No call is placed: Twilio's API (a fake) is asked only whether
 * the account holds the numbers added; a model is configured (conversations on) but never
 * asked, as no relay websocket connects.
 */

const CALLER = '+14155550199'; // tenant A's contact Ada
/** A number of the account that neither tenant starts with. */
const SPARE = '+14155550140';

let fake: Awaited<ReturnType<typeof fakeTwilio>>;
let t: TestApp;
let a: Tenant;
let b: Tenant;
let sids = 0;

beforeAll(async () => {
  fake = await fakeTwilio({ numbers: [FROM, '+14155552672', SPARE] });
  t = await startTestApp({
    ...twilioProviderEnv(fake),
    MAX_CONCURRENT_CALLS_PER_COMPANY: '1',
    MAX_CONCURRENT_INBOUND_CALLS_PER_COMPANY: '1',
    LLM_BASE_URL: 'http://127.0.0.1:9/v1',
    LLM_MODEL: 'never-asked',
  });
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const nextSid = () => `CA${String(++sids).padStart(32, '0')}`;

/** Posts to `path` as Twilio would: the form, signed with `token` for the public URL. */
function signedPost(path: string, params: Record<string, string>, signature = twilio.getExpectedTwilioSignature(TOKEN, `${PUBLIC}${path}`, params)) {
  return t.request('POST', path, {
    raw: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
  });
}

/** Twilio's incoming-call webhook for a call from `from` to `to`. */
const ring = (to: string, from = CALLER, callSid = nextSid()) =>
  signedPost('/v1/telephony/twilio/voice', { CallSid: callSid, AccountSid: SID, From: from, To: to, CallStatus: 'ringing', Direction: 'inbound' });

async function callsOf(tenantKey: string): Promise<any[]> {
  return okData(await t.request('GET', '/v1/calls?limit=100', { token: tenantKey })).items;
}

const patchNumber = (tn: Tenant, body: unknown) => t.request('PATCH', `/v1/phone-numbers/${tn.number.id}`, { token: tn.key, body });

/** Ends the call with this sid through the number's status callback (one URL, no call_id). */
const completed = (callSid: string) => signedPost('/v1/telephony/twilio/status', { CallSid: callSid, CallStatus: 'completed', CallDuration: '42' });

describe('PATCH /v1/phone-numbers/{id}', () => {
  it("names the company's agent as the number's answerer, keeps it on a label change, clears it with null", async () => {
    expect(okData(await patchNumber(a, { inbound_agent_id: a.agent.id }))).toMatchObject({ id: a.number.id, inbound_agent_id: a.agent.id, label: 'main' });
    expect(okData(await patchNumber(a, { label: 'front desk' }))).toMatchObject({ inbound_agent_id: a.agent.id, label: 'front desk' });
    expect(okData(await patchNumber(a, { inbound_agent_id: null }))).toMatchObject({ inbound_agent_id: null });
  });

  it("answers 404 for another company's agent, and changes nothing", async () => {
    const res = await patchNumber(a, { inbound_agent_id: b.agent.id, label: 'stolen' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', message: 'Not found', data: '' });
    const [number] = okData(await t.request('GET', '/v1/phone-numbers', { token: a.key }));
    expect(number).toMatchObject({ inbound_agent_id: null, label: 'front desk' });
  });

  it('refuses an id that is no UUID with the field named', async () => {
    const res = await patchNumber(a, { inbound_agent_id: 'agent-1' });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'inbound_agent_id', message: expect.any(String) }]);
  });
});

describe('POST /v1/telephony/twilio/voice', () => {
  it('rejects a call to a number with no agent, and to an unknown number, storing nothing', async () => {
    for (const to of [FROM, '+14155559999']) {
      const res = await ring(to);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/xml/);
      expect(res.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Reject/></Response>');
    }
    expect(await callsOf(a.key)).toEqual([]);
  });

  it('refuses unsigned and forged webhooks with 403, storing nothing', async () => {
    okData(await patchNumber(a, { inbound_agent_id: a.agent.id }));
    const params = { CallSid: nextSid(), From: CALLER, To: FROM };
    const forged = twilio.getExpectedTwilioSignature('not-the-token', `${PUBLIC}/v1/telephony/twilio/voice`, params);
    for (const signature of ['', forged]) {
      const res = await signedPost('/v1/telephony/twilio/voice', params, signature);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ status: 'error', message: 'Invalid Twilio signature', data: '' });
    }
    expect(await callsOf(a.key)).toEqual([]);
  });

  it("answers with the number's agent over ConversationRelay and stores the call, matched to the caller's contact", async () => {
    const sid = nextSid();
    // The caller is on the do-not-call list: that list is for calls we place, not calls we receive.
    okData(await t.request('POST', '/v1/do-not-call', { token: a.key, body: { numbers: [CALLER] } }));
    const res = await ring('(415) 555-2671', CALLER, sid);
    expect(res.status).toBe(200);
    const [call] = await callsOf(a.key);
    expect(call).toMatchObject({
      call_direction: 'incoming',
      is_test: false,
      call_sid: sid,
      call_from: CALLER,
      call_to: FROM,
      call_status: 'in-progress',
      ai_agent_id: a.agent.id,
      contact_id: a.contact.id,
      campaign_id: null,
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(res.text).toContain(`<Connect action="${PUBLIC}/v1/telephony/twilio/relay-ended?call_id=${call.id}">`);
    expect(res.text).toMatch(/<ConversationRelay url="wss:\/\/switchboard\.example\.test\/v1\/telephony\/twilio\/relay\?token=[^"]+" language="en-US"/);
    expect(res.text).toContain(`<Parameter name="call_id" value="${call.id}"/>`);

    // A repeated webhook for the same call answers the same and stores nothing more.
    // The same TwiML, but for its relay session token: each TwiML gets its own (one session at a time per call holds).
    const tokenless = (twiml: string) => twiml.replace(/\?token=[^"]+/, '');
    expect(tokenless((await ring(FROM, CALLER, sid)).text)).toBe(tokenless(res.text));
    expect(await callsOf(a.key)).toHaveLength(1);
  });

  it('over the concurrent-call limit answers busy and records the call as busy; the status callback frees the slot', async () => {
    const [live] = await callsOf(a.key);
    const busySid = nextSid();
    const res = await ring(FROM, '+14155550100', busySid);
    expect(res.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>');
    const busy = (await callsOf(a.key)).find((c) => c.call_sid === busySid);
    expect(busy).toMatchObject({ call_status: 'busy', disconnect_reason: 'concurrency_limit', call_direction: 'incoming', contact_id: null });

    // The number's status callback (set in the Twilio console, no call_id) finds the call by CallSid.
    okData(await completed(live.call_sid));
    const ended = okData(await t.request('GET', `/v1/calls/${live.id}`, { token: a.key }));
    expect(ended).toMatchObject({ call_status: 'completed', call_duration: 42 });
    expect((await ring(FROM)).text).toContain('<ConversationRelay');
  });

  it('counts incoming and outgoing calls against limits of their own', async () => {
    const [live] = (await callsOf(a.key)).filter((c) => c.call_status === 'in-progress');
    expect(live).toMatchObject({ call_direction: 'incoming' });
    // The incoming call holds the company's one incoming slot, not its outgoing one: make-call is placed.
    const made = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123' } }));
    await waitFor('the outgoing call to be placed at Twilio', async () => fake.received.find((r) => r.path.endsWith('/Calls.json') && r.form.get('Twiml')?.includes(made.id)));
    // The outgoing call holds the outgoing slot, not the incoming one: a caller is answered once the incoming slot is free.
    okData(await completed(live.call_sid));
    expect((await ring(FROM)).text).toContain('<ConversationRelay');
    expect((await ring(FROM)).text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>');
  });

  it("hands the call to the number's active inbound campaign: its agent and variable mapping win", async () => {
    for (const c of await callsOf(a.key)) if (c.call_status === 'in-progress') okData(await completed(c.call_sid));
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Reception', prompt: 'Greet {{first}}', language: 'fr-FR' } }));
    const campaign = okData(
      await t.request('POST', '/v1/campaigns', {
        token: a.key,
        body: {
          name: 'Inbound line',
          campaign_type: 'inbound',
          status: 'active',
          ai_agent_id: agent.id,
          inbound_phone_number_id: a.number.id,
          agent_variables_contact_metadata_mapping: { first: 'firstname', added: 'created_at' },
        },
      }),
    );
    const sid = nextSid();
    const res = await ring(FROM, CALLER, sid);
    const call = (await callsOf(a.key)).find((c) => c.call_sid === sid);
    expect(res.text).toContain(`<Parameter name="call_id" value="${call.id}"/>`);
    expect(res.text).toContain('language="fr-FR"');
    expect(call).toMatchObject({ ai_agent_id: agent.id, campaign_id: campaign.id, contact_id: a.contact.id });
    // The mapping reads the contact as GET /v1/contacts/{id} answers it, dates included (docs/campaigns.md).
    expect(call.agent_dynamic_variables).toEqual(
      expect.arrayContaining([
        { name: 'first', value: 'Ada' },
        { name: 'added', value: a.contact.created_at },
      ]),
    );
  });

  it("never answers with another company's records: B's number rejects while B has no agent", async () => {
    const res = await ring('+14155552672');
    expect(res.text).toContain('<Reject/>');
    expect(await callsOf(b.key)).toEqual([]);
  });
});

describe('phone numbers with Twilio', () => {
  it('adds only a number the Twilio account holds, asking Twilio for it', async () => {
    const res = await t.request('POST', '/v1/phone-numbers', { token: a.key, body: { phone_number: '(415) 555-0141' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field: 'phone_number', message: "Not a number of the platform's telephony account" }] });
    const asked = fake.received.find((r) => r.path.includes('PhoneNumber=%2B14155550141'))!;
    expect(asked).toMatchObject({ method: 'GET', path: `/2010-04-01/Accounts/${SID}/IncomingPhoneNumbers.json?PhoneNumber=%2B14155550141` });
    expect(asked.auth).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
  });

  it('routes incoming calls to the company holding the number: once A removed it and B added it, to B', async () => {
    for (const c of await callsOf(a.key)) if (c.call_status === 'in-progress') okData(await completed(c.call_sid));
    const held = okData(await t.request('POST', '/v1/phone-numbers', { token: a.key, body: { phone_number: SPARE } }));
    okData(await t.request('PATCH', `/v1/phone-numbers/${held.id}`, { token: a.key, body: { inbound_agent_id: a.agent.id } }));
    expect((await t.request('POST', '/v1/phone-numbers', { token: b.key, body: { phone_number: SPARE } })).status).toBe(409);
    const toA = nextSid();
    expect((await ring(SPARE, CALLER, toA)).text).toContain('<ConversationRelay');
    expect((await callsOf(a.key)).find((c) => c.call_sid === toA)).toMatchObject({ call_to: SPARE, ai_agent_id: a.agent.id });
    okData(await completed(toA));

    okData(await t.request('DELETE', `/v1/phone-numbers/${held.id}`, { token: a.key }));
    const added = okData(await t.request('POST', '/v1/phone-numbers', { token: b.key, body: { phone_number: SPARE } }));
    okData(await t.request('PATCH', `/v1/phone-numbers/${added.id}`, { token: b.key, body: { inbound_agent_id: b.agent.id } }));
    const before = (await callsOf(a.key)).length;
    const toB = nextSid();
    expect((await ring(SPARE, CALLER, toB)).text).toContain('<ConversationRelay');
    expect(await callsOf(b.key)).toEqual([expect.objectContaining({ call_sid: toB, call_to: SPARE, ai_agent_id: b.agent.id, contact_id: b.contact.id })]);
    expect(await callsOf(a.key)).toHaveLength(before);
  });
});
