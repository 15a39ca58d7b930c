import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Config, ConfigError, parseSecretsKey } from './config';
import type { Logger } from './logger';

/**
 * The key of secrets at rest: SECRETS_KEY, or else the one kept in the key file beside the
 * embedded data folder, made (mode 0600) on the first start and read at every later one.
 * Two processes starting together make it once: each writes a file of its own and links it
 * to the key file's name, which only the first link gets (atomic), and both read what is there. With DATABASE_URL (never in production: config refuses
 * it) a warning says that other replicas of that database need the same key.
 */
export async function secretsKey(secrets: Config['secrets'], logger: Logger): Promise<Buffer> {
  if ('key' in secrets) return secrets.key;
  const file = path.resolve(secrets.keyFile);
  if (secrets.sharedDatabase) {
    logger.warn({ key_file: file }, 'SECRETS_KEY is unset: secrets are encrypted with the key in this file; set SECRETS_KEY to it on every replica of this database');
  }
  const kept = await readKeyFile(file);
  if (kept) return kept;
  await mkdir(path.dirname(file), { recursive: true });
  const made = `${file}.${randomBytes(6).toString('hex')}.new`;
  await writeFile(made, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    await link(made, file);
    logger.info({ key_file: file }, 'made the key of secrets at rest (keep this file with the data)');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(made);
  }
  return (await readKeyFile(file))!;
}

/** The key the file holds; null when there is no file. */
async function readKeyFile(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const key = parseSecretsKey(text);
  if (!key) throw new ConfigError(`Invalid configuration: ${file} (the key of secrets at rest while SECRETS_KEY is unset) does not hold a 32-byte key in base64 or hex`);
  return key;
}
