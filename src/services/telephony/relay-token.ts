import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * How long a relay session URL may be opened after its TwiML was made: Twilio opens it when
 * the call is answered, after up to a minute of ringing, or longer when Twilio queues the call
 * (its calls-per-second limit).
 */
export const RELAY_TOKEN_TTL_MS = 10 * 60_000;

const key = (secret: string) => createHmac('sha256', secret).update('switchboard relay session token').digest();
const mac = (secret: string, body: string) => createHmac('sha256', key(secret)).update(body).digest('base64url');

/**
 * A relay session URL's token: the call id, an expiry (Unix seconds) and a random nonce,
 * signed (HMAC-SHA256 under a key derived from `secret`, the Twilio auth token). Bound to the
 * call, expiring, and single-use once its nonce is claimed (relay-session.store.ts).
 */
export function mintRelayToken(secret: string, callId: string, now: Date): string {
  const body = `${callId}.${Math.floor((now.getTime() + RELAY_TOKEN_TTL_MS) / 1000)}.${randomBytes(16).toString('base64url')}`;
  return `${body}.${mac(secret, body)}`;
}

/** The token's call, nonce and expiry when it is ours and not expired; else null. */
export function readRelayToken(secret: string, token: string, now: Date): { callId: string; nonce: string; expiresAt: Date } | null {
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [callId, expiry, nonce, given] = parts as [string, string, string, string];
  const expected = Buffer.from(mac(secret, `${callId}.${expiry}.${nonce}`));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  const expiresAt = new Date(Number(expiry) * 1000);
  return /^\d+$/.test(expiry) && expiresAt > now ? { callId, nonce, expiresAt } : null;
}
