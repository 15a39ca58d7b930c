import 'reflect-metadata';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ConfigError, loadConfig } from '../config';
import { resolveDatabase } from '../db/database';
import { openDatabase } from '../db/orm';
import { closePool } from '../db/side-pool';
import { createLogger } from '../logger';
import { AuthService } from '../services/auth/auth.service';
import { resealSecrets } from '../services/flows/flow-secrets.store';
import { JobQueue } from '../services/platform/jobs/job-queue';
import { AppError, describeError } from '../services/shared/errors';
import { SecretBox, SecretKeyError } from '../services/shared/secret-box';
import { secretsKey } from '../secrets-key';

const USAGE = `Usage:
  npm run --silent admin -- create-company --name NAME    prints {"company_id": "...", "api_key": "..."}
  npm run --silent admin -- create-api-key --company ID   prints {"api_key": "..."}
  npm run --silent admin -- revoke-api-key --key sk_...   prints {"revoked": true}
  npm run --silent admin -- list-companies                prints {"companies": [{"id": "...", "name": "...", "created_at": "..."}]}
  npm run --silent admin -- migrate                       prints {"migrated": true}: migrations, job queues
  npm run --silent admin -- rotate-secrets                prints {"resealed": {"flows": N, "executions": N}}: secrets SECRETS_PREVIOUS_KEYS encrypted, under SECRETS_KEY`;

const COMMANDS = new Set(['create-company', 'create-api-key', 'revoke-api-key', 'list-companies', 'migrate', 'rotate-secrets']);

/** Administration from the shell, on the same database rules as the service. Prints one JSON line. */
async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, company: { type: 'string' }, key: { type: 'string' } },
  });
  const command = positionals[0];
  if (command === undefined || !COMMANDS.has(command)) throw new UsageError(USAGE);
  const config = loadConfig();
  const db = await resolveDatabase(config);
  // One connection for the migration lock (src/db/side-pool.ts), destroyed once migrated.
  const sidePool = new pg.Pool({ connectionString: db.url, max: 1 });
  const orm = await openDatabase(db.url, sidePool, 2);
  try {
    const auth = new AuthService(config.jwt, config.authTrustMs);
    const em = orm.em.fork();
    // What the commands log goes to stderr: stdout is their one JSON line.
    const logger = createLogger(config.logLevel, { destination: process.stderr });
    if (command === 'migrate') {
      // Opening the database applied what was pending; then the job queue's schema and queues,
      // so that replicas started after this release step create nothing.
      const jobs = await JobQueue.start(db.url, sidePool, { pollMs: config.jobPollMs, poolMax: 2, ...config.jobRecovery }, logger);
      await jobs.prepareAll();
      await jobs.stop();
      process.stdout.write(`${JSON.stringify({ migrated: true })}\n`);
    } else if (command === 'rotate-secrets') {
      const box = new SecretBox(await secretsKey(config.secrets, logger), config.previousSecretsKeys);
      process.stdout.write(`${JSON.stringify({ resealed: await resealSecrets(em, box) })}\n`);
    } else if (command === 'create-company') {
      if (values.name === undefined) throw new UsageError(USAGE);
      const { companyId, apiKey } = await auth.createCompany(em, { name: values.name });
      process.stdout.write(`${JSON.stringify({ company_id: companyId, api_key: apiKey })}\n`);
    } else if (command === 'list-companies') {
      const companies = (await auth.listCompanies(em)).map(({ id, name, createdAt }) => ({ id, name, created_at: createdAt.toISOString() }));
      process.stdout.write(`${JSON.stringify({ companies })}\n`);
    } else if (command === 'revoke-api-key') {
      if (values.key === undefined) throw new UsageError(USAGE);
      await auth.revokeApiKey(em, values.key);
      process.stdout.write(`${JSON.stringify({ revoked: true })}\n`);
    } else {
      if (values.company === undefined) throw new UsageError(USAGE);
      const { apiKey } = await auth.createApiKey(em, values.company);
      process.stdout.write(`${JSON.stringify({ api_key: apiKey })}\n`);
    }
  } finally {
    await orm.close();
    await closePool(sidePool);
    await db.stop();
  }
}

class UsageError extends Error {}

function describe(err: unknown): string {
  if (err instanceof AppError || err instanceof UsageError || err instanceof ConfigError || err instanceof SecretKeyError) return describeError(err);
  return `Failed: ${describeError(err)}`;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${describe(err)}\n`);
  process.exit(1);
});
