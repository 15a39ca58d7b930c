import type { EntityManager } from '@mikro-orm/postgresql';
import { CREDENTIAL_NAME, type PredefinedVariable } from '../../entities/webhook-flow.entity';
import type { FlowDefinition } from '../../entities/webhook-execution.entity';
import { SEALED_PREFIX, type SecretBox } from '../shared/secret-box';
import { sealPredefined, secretValues } from './flow-secrets';
import { maskSecrets } from './step-log';

/**
 * The start-up upgrade of secrets at rest (docs/operations.md, "Secrets at rest"): values
 * stored in clear before encryption existed (or by a replica of an older release) are
 * encrypted, and the key is checked against what is already encrypted. It runs at every
 * start and finds nothing to do once done; replicas starting together may run it side by
 * side: each write names the clear value it replaces, so a row changed meanwhile is left
 * to the one that changed it. Its statements read across companies (named `upgrade:`).
 */

/** Rows taken at once. */
const BATCH = 200;
/** Before every id, where a scan in id order starts. */
const NO_ID = '00000000-0000-0000-0000-000000000000';

/** SQL: the JSON array `column` holds a secret predefined variable whose value is in clear (parameter: the credential-name pattern). */
const clearVariablesIn = (column: string) => `EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(${column}, '[]'::jsonb)) v
  WHERE v ->> 'value' <> '' AND v ->> 'value' NOT LIKE '${SEALED_PREFIX}%' AND (v -> 'secret' = 'true'::jsonb OR v ->> 'name' ~* ?))`;

/** A flow's secrets as stored (`webhook_flows`). */
interface FlowSecretsRow {
  id: string;
  secret: string;
  predefined_variables: PredefinedVariable[];
}

/** The flow definition an execution copied (`webhook_executions`). */
interface ExecutionDefinitionRow {
  id: string;
  definition: FlowDefinition;
}

/** A step's logs (`webhook_step_runs`): JSON values as stored, the error as text. */
interface StepLogRow {
  id: string;
  request: unknown;
  response: unknown;
  error: string | null;
  try_errors: unknown;
}

/** A row an UPDATE ... RETURNING id answered. */
type Updated = { id: string }[];

/** Fails (SecretKeyError) when SECRETS_KEY does not decrypt the secrets already encrypted. */
async function checkSecretsKey(em: EntityManager, box: SecretBox): Promise<void> {
  const [row] = await em.execute<Pick<FlowSecretsRow, 'secret'>[]>(`/* upgrade:secrets-key */ SELECT secret FROM webhook_flows WHERE secret LIKE '${SEALED_PREFIX}%' LIMIT 1`);
  if (row) box.open(row.secret);
}

/** Checks the key, then encrypts what is still in clear; answers how many flows and executions it changed. */
export async function upgradeSecretsAtRest(em: EntityManager, box: SecretBox): Promise<{ flows: number; executions: number }> {
  await checkSecretsKey(em, box);
  return sealClearSecrets(em, box);
}

/** Encrypts what is still in clear; answers how many flows and executions it changed. */
async function sealClearSecrets(em: EntityManager, box: SecretBox): Promise<{ flows: number; executions: number }> {
  return { flows: await sealFlows(em, box), executions: await sealExecutions(em, box) };
}

/** Flows: the signing secret and the secret predefined variables. */
async function sealFlows(em: EntityManager, box: SecretBox): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await em.execute<FlowSecretsRow[]>(
      `/* upgrade:sealed-secrets */ SELECT id, secret, predefined_variables FROM webhook_flows
       WHERE (secret <> '' AND secret NOT LIKE '${SEALED_PREFIX}%') OR ${clearVariablesIn('predefined_variables')} LIMIT ?`,
      [CREDENTIAL_NAME.source, BATCH],
    );
    if (rows.length === 0) return sealed;
    for (const row of rows) {
      const variables = JSON.stringify(sealPredefined(row.predefined_variables, box));
      const result = await em.execute<Updated>(
        `/* upgrade:sealed-secrets */ UPDATE webhook_flows SET secret = ?, predefined_variables = ?::jsonb WHERE id = ? AND secret = ? AND predefined_variables = ?::jsonb RETURNING id`,
        [box.seal(row.secret), variables, row.id, row.secret, JSON.stringify(row.predefined_variables)],
      );
      sealed += result.length;
    }
  }
}

/**
 * Executions: the secret variables of the flow definition each one copied, and, in the same
 * transaction, those values masked in its steps' logs (requests, responses and errors).
 */
async function sealExecutions(em: EntityManager, box: SecretBox): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await em.execute<ExecutionDefinitionRow[]>(
      `/* upgrade:sealed-secrets */ SELECT id, definition FROM webhook_executions WHERE ${clearVariablesIn(`definition -> 'predefinedVariables'`)} LIMIT ?`,
      [CREDENTIAL_NAME.source, BATCH],
    );
    if (rows.length === 0) return sealed;
    for (const row of rows) {
      const { definition } = row;
      const clear: PredefinedVariable[] = definition.predefinedVariables;
      const next = JSON.stringify({ ...definition, predefinedVariables: sealPredefined(clear, box) });
      sealed += await em.transactional(async (tx) => {
        const result = await tx.execute<Updated>(`/* upgrade:sealed-secrets */ UPDATE webhook_executions SET definition = ?::jsonb WHERE id = ? AND definition = ?::jsonb RETURNING id`, [
          next,
          row.id,
          JSON.stringify(definition),
        ]);
        if (result.length === 1) await maskStepLogs(tx, row.id, secretValues(clear));
        return result.length;
      });
    }
  }
}

/** SQL: the JSON array `column` holds an encrypted value. */
const sealedVariablesIn = (column: string) => `EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(${column}, '[]'::jsonb)) v WHERE v ->> 'value' LIKE '${SEALED_PREFIX}%')`;

/** `variables` with each value an earlier key encrypted encrypted again under the current key; null when none was. */
function resealVariables(variables: PredefinedVariable[], box: SecretBox): PredefinedVariable[] | null {
  let changed = false;
  const next = variables.map((v) => {
    const resealed = box.resealed(v.value);
    if (resealed === null) return v;
    changed = true;
    return { ...v, value: resealed };
  });
  return changed ? next : null;
}

/**
 * The rotation of the key of secrets at rest (`admin rotate-secrets`; docs/operations.md,
 * "Rotating the key"): every encrypted value that only one of SECRETS_PREVIOUS_KEYS decrypts
 * is encrypted again under SECRETS_KEY, in flows and in the flow copies of executions. The
 * key is not in the SQL's reach, so every row holding an encrypted value is read, in id
 * order; each write names the values it replaces, so a row changed meanwhile is left as its
 * writer left it (under the current key, as every replica writes). Answers the rows changed.
 * @throws SecretKeyError when a value decrypts with no key given.
 */
export async function resealSecrets(em: EntityManager, box: SecretBox): Promise<{ flows: number; executions: number }> {
  const flows = await inIdOrder<FlowSecretsRow>(
    em,
    `/* upgrade:resealed-secrets */ SELECT id, secret, predefined_variables FROM webhook_flows
     WHERE id > ? AND (secret LIKE '${SEALED_PREFIX}%' OR ${sealedVariablesIn('predefined_variables')}) ORDER BY id LIMIT ?`,
    async (row) => {
      const secret = box.resealed(row.secret);
      const variables = resealVariables(row.predefined_variables, box);
      if (secret === null && variables === null) return 0;
      const result = await em.execute<Updated>(
        `/* upgrade:resealed-secrets */ UPDATE webhook_flows SET secret = ?, predefined_variables = ?::jsonb WHERE id = ? AND secret = ? AND predefined_variables = ?::jsonb RETURNING id`,
        [secret ?? row.secret, JSON.stringify(variables ?? row.predefined_variables), row.id, row.secret, JSON.stringify(row.predefined_variables)],
      );
      return result.length;
    },
  );
  const executions = await inIdOrder<ExecutionDefinitionRow>(
    em,
    `/* upgrade:resealed-secrets */ SELECT id, definition FROM webhook_executions WHERE id > ? AND ${sealedVariablesIn(`definition -> 'predefinedVariables'`)} ORDER BY id LIMIT ?`,
    async ({ id, definition }) => {
      const variables = resealVariables(definition.predefinedVariables, box);
      if (variables === null) return 0;
      const result = await em.execute<Updated>(`/* upgrade:resealed-secrets */ UPDATE webhook_executions SET definition = ?::jsonb WHERE id = ? AND definition = ?::jsonb RETURNING id`, [
        JSON.stringify({ ...definition, predefinedVariables: variables }),
        id,
        JSON.stringify(definition),
      ]);
      return result.length;
    },
  );
  return { flows, executions };
}

/**
 * Visits every row `select` reads, BATCH at a time in id order (its parameters: the id to read
 * after, and the limit); answers the sum of what `visit` answered (the rows it changed).
 */
async function inIdOrder<R extends { id: string }>(em: EntityManager, select: string, visit: (row: R) => Promise<number>): Promise<number> {
  let changed = 0;
  for (let after = NO_ID; ;) {
    const rows = await em.execute<R[]>(select, [after, BATCH]);
    if (rows.length === 0) return changed;
    after = rows.at(-1)!.id;
    for (const row of rows) changed += await visit(row);
  }
}

/** `value` with `secrets` masked in each string it holds. */
function maskDeep(value: unknown, secrets: string[]): unknown {
  if (typeof value === 'string') return maskSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, secrets));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskDeep(v, secrets)]));
  return value;
}

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

/** The logs of an execution's steps with `secrets` masked, as new logs are written (step-log `maskSecrets`). */
async function maskStepLogs(em: EntityManager, executionId: string, secrets: string[]): Promise<void> {
  const runs = await em.execute<StepLogRow[]>(`SELECT id, request, response, error, try_errors FROM webhook_step_runs WHERE execution_id = ?`, [executionId]);
  for (const run of runs) {
    await em.execute(`UPDATE webhook_step_runs SET request = ?::jsonb, response = ?::jsonb, error = ?, try_errors = ?::jsonb WHERE id = ?`, [
      json(maskDeep(run.request, secrets)),
      json(maskDeep(run.response, secrets)),
      maskDeep(run.error, secrets),
      json(maskDeep(run.try_errors, secrets)),
      run.id,
    ]);
  }
}
