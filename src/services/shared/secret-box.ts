import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The envelope of a value encrypted at rest: `enc:v1:<iv>:<tag>:<ciphertext>`, each part base64. */
export const SEALED_PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Whether a stored value is encrypted (carries the envelope). */
export const isSealed = (stored: string): boolean => stored.startsWith(SEALED_PREFIX);

/** A stored value that neither SECRETS_KEY nor SECRETS_PREVIOUS_KEYS decrypts: another key encrypted it, or it was altered. */
export class SecretKeyError extends Error {
  constructor() {
    super(
      'A stored secret does not decrypt with SECRETS_KEY (nor SECRETS_PREVIOUS_KEYS): it was encrypted with another key (every replica must share one key, changed only by a rotation; docs/operations.md, "Secrets at rest")',
    );
  }
}

/**
 * Encrypts and decrypts the secrets kept in the database (flow signing secrets, secret
 * predefined variables) with AES-256-GCM under SECRETS_KEY (docs/operations.md, "Secrets at
 * rest"). GCM authenticates: a wrong key or an altered value is an error, never garbage.
 * During a rotation, values an earlier key encrypted (`previous`) are still read; new values
 * are always encrypted under the current key.
 */
export class SecretBox {
  private readonly previous: Buffer[];

  constructor(
    private readonly key: Buffer,
    previous: Buffer[] = [],
  ) {
    if ([key, ...previous].some((k) => k.length !== 32)) throw new Error('SECRETS_KEY and SECRETS_PREVIOUS_KEYS must be 32 bytes each');
    this.previous = previous.filter((k) => !k.equals(key));
  }

  /** The value encrypted in a fresh envelope; an empty value and a value already sealed stay as they are. */
  seal(value: string): string {
    if (value === '' || isSealed(value)) return value;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${ciphertext.toString('base64')}`;
  }

  /**
   * The clear value of a stored one. A value without the envelope is read as it is: one
   * written before encryption existed, which the start-up upgrade encrypts.
   * @throws SecretKeyError when the envelope decrypts with no key given (current or earlier).
   */
  open(stored: string): string {
    return isSealed(stored) ? this.decrypted(stored).clear : stored;
  }

  /**
   * A stored value encrypted again under the current key when only an earlier key decrypts
   * it (a rotation); null when there is nothing to do: in clear, or already under the current key.
   * @throws SecretKeyError when no key decrypts it.
   */
  resealed(stored: string): string | null {
    if (!isSealed(stored)) return null;
    const { clear, current } = this.decrypted(stored);
    return current ? null : this.seal(clear);
  }

  /** The clear value of an envelope, and whether the current key (not an earlier one) decrypted it. */
  private decrypted(stored: string): { clear: string; current: boolean } {
    for (const key of [this.key, ...this.previous]) {
      const clear = decrypt(stored, key);
      if (clear !== null) return { clear, current: key === this.key };
    }
    throw new SecretKeyError();
  }
}

/** The clear value of an envelope under `key`; null when the key does not decrypt it (or the envelope is malformed). */
function decrypt(stored: string, key: Buffer): string | null {
  const [iv, tag, ciphertext] = stored
    .slice(SEALED_PREFIX.length)
    .split(':')
    .map((part) => Buffer.from(part, 'base64'));
  if (!iv || !tag || !ciphertext || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
