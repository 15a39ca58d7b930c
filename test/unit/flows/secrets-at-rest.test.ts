import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/logger';
import { secretsKey } from '../../../src/secrets-key';
import { isSealed, SecretBox, SecretKeyError } from '../../../src/services/shared/secret-box';
import { logRequest, logResponse } from '../../../src/services/flows/step-log';

const key = randomBytes(32);

describe('the secret box (AES-256-GCM, versioned envelope)', () => {
  const box = new SecretBox(key);

  it('seals a value into enc:v1:<iv>:<tag>:<ciphertext> (base64) that opens to it, a fresh IV each time', () => {
    const sealed = box.seal('whsec_abc');
    expect(sealed).toMatch(/^enc:v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(box.seal(sealed)).toBe(sealed);
    expect(box.seal('')).toBe('');
    expect(isSealed(sealed)).toBe(true);
  });

  it('reads a value stored before encryption as it is', () => {
    expect(box.open('tok_clear')).toBe('tok_clear');
  });

  it('refuses with a clear error, never garbage, under another key or when altered', () => {
    const sealed = box.seal('tok_live');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(SecretKeyError);
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(/does not decrypt with SECRETS_KEY/);
    const parts = sealed.split(':');
    const altered = [...parts.slice(0, 4), Buffer.from('tok_lave').toString('base64')].join(':');
    expect(() => box.open(altered)).toThrow(SecretKeyError);
    expect(() => box.open('enc:v1:bad')).toThrow(SecretKeyError);
  });
});

describe('the secret box during a rotation (SECRETS_PREVIOUS_KEYS)', () => {
  const oldKey = randomBytes(32);
  const older = new SecretBox(oldKey);
  const rotating = new SecretBox(key, [randomBytes(32), oldKey]);

  it('opens what an earlier key sealed, and seals under the current key only', () => {
    const old = older.seal('tok_old');
    expect(rotating.open(old)).toBe('tok_old');
    const fresh = rotating.seal('tok_new');
    expect(new SecretBox(key).open(fresh)).toBe('tok_new');
    expect(() => older.open(fresh)).toThrow(SecretKeyError);
  });

  it('seals again under the current key what only an earlier key opens, and nothing else', () => {
    const resealed = rotating.resealed(older.seal('tok_old'));
    expect(resealed).not.toBeNull();
    expect(new SecretBox(key).open(resealed!)).toBe('tok_old');
    expect(rotating.resealed(rotating.seal('tok_new'))).toBeNull();
    expect(rotating.resealed('tok_clear')).toBeNull();
    expect(rotating.resealed('')).toBeNull();
  });

  it('refuses, naming both settings, what no key given opens', () => {
    const stranger = new SecretBox(randomBytes(32)).seal('tok_x');
    expect(() => rotating.open(stranger)).toThrow(/does not decrypt with SECRETS_KEY \(nor SECRETS_PREVIOUS_KEYS\)/);
    expect(() => rotating.resealed(stranger)).toThrow(SecretKeyError);
  });
});

describe('SECRETS_KEY', () => {
  it('is 32 bytes in base64 or hex; anything else stops start-up naming it', () => {
    expect(loadConfig({ SECRETS_KEY: key.toString('base64') }).secrets).toEqual({ key });
    expect(loadConfig({ SECRETS_KEY: key.toString('hex') }).secrets).toEqual({ key });
    for (const bad of ['short', randomBytes(16).toString('base64'), `${key.toString('hex')}00`]) {
      expect(() => loadConfig({ SECRETS_KEY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ SECRETS_KEY: bad })).toThrow(/SECRETS_KEY: must be 32 bytes/);
    }
  });

  it('SECRETS_PREVIOUS_KEYS: comma-separated keys, each 32 bytes in base64 or hex; anything else stops start-up naming it', () => {
    const other = randomBytes(32);
    expect(loadConfig({}).previousSecretsKeys).toEqual([]);
    expect(loadConfig({ SECRETS_PREVIOUS_KEYS: `${key.toString('base64')},${other.toString('hex')}` }).previousSecretsKeys).toEqual([key, other]);
    for (const bad of ['short', `${key.toString('base64')},`, `${key.toString('base64')},${randomBytes(16).toString('hex')}`]) {
      expect(() => loadConfig({ SECRETS_PREVIOUS_KEYS: bad })).toThrow(/SECRETS_PREVIOUS_KEYS: each key \(comma-separated\) must be 32 bytes/);
    }
  });

  it('is required with DATABASE_URL in production', () => {
    const env = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/switchboard' };
    expect(() => loadConfig(env)).toThrow(/SECRETS_KEY is required when DATABASE_URL is set and NODE_ENV=production/);
    expect(loadConfig({ ...env, SECRETS_KEY: key.toString('base64') }).secrets).toEqual({ key });
    expect(loadConfig({ NODE_ENV: 'production' }).secrets).toEqual({ keyFile: '.data/secrets.key', sharedDatabase: false });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/switchboard' }).secrets).toEqual({ keyFile: '.data/secrets.key', sharedDatabase: true });
  });
});

describe('the key file of the embedded default', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'secrets-key-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const logger = createLogger('silent');

  it('is made once beside the embedded data folder, mode 0600, and reused at later starts', async () => {
    const { secrets } = loadConfig({ EMBEDDED_PG_DIR: path.join(dir, 'data', 'postgres') });
    const file = path.join(dir, 'data', 'secrets.key');
    const first = await secretsKey(secrets, logger);
    expect(first).toHaveLength(32);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const written = await readFile(file, 'utf8');
    expect(await secretsKey(secrets, logger)).toEqual(first);
    expect(await readFile(file, 'utf8')).toBe(written);
  });

  it('is made once when starts race', async () => {
    const { secrets } = loadConfig({ EMBEDDED_PG_DIR: path.join(dir, 'postgres') });
    const keys = await Promise.all([1, 2, 3, 4].map(() => secretsKey(secrets, logger)));
    for (const k of keys) expect(k).toEqual(keys[0]);
  });

  it('that holds no key stops start-up naming it', async () => {
    await writeFile(path.join(dir, 'secrets.key'), 'not a key\n');
    const { secrets } = loadConfig({ EMBEDDED_PG_DIR: path.join(dir, 'postgres') });
    await expect(secretsKey(secrets, logger)).rejects.toThrow(/secrets\.key .*does not hold a 32-byte key/);
  });
});

describe('the step log', () => {
  const secrets = ['tok live/1', 'h"1'];

  it('masks secret values wherever they are sent (URL, headers, body) and echoed, before the body is cut', () => {
    // The secret starts 2 characters before the cut (EXCERPT_LIMIT, 4096): masked first, it leaves no prefix.
    const body = JSON.stringify({ pad: 'x'.repeat(4076), hook: 'h"1' });
    expect(body.indexOf('h\\"1')).toBe(4094);
    const logged = logRequest({ method: 'POST', url: 'https://rx.example/p/tok%20live%2F1?k=tok+live%2F1', headers: { 'x-hook': 'h"1', authorization: 'Bearer x' }, body }, secrets);
    const text = JSON.stringify(logged);
    expect(text).not.toMatch(/tok|h\\"1/);
    expect(logged.headers).toEqual({ 'x-hook': '[redacted]', authorization: '[redacted]' });
    expect(logged.body!.endsWith('"[r')).toBe(true);
    const response = logResponse({ status: 200, headers: { 'x-echo': 'tok live/1' }, text: '{"got":"tok live/1"}', truncated: false }, secrets);
    expect(response).toEqual({ status: 200, headers: { 'x-echo': '[redacted]' }, body: '{"got":"[redacted]"}', truncated: false });
  });
});
