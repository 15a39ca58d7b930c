import type { EntityManager } from '@mikro-orm/postgresql';
import type { ScenarioRun } from './test-run.contract';

/**
 * Writes one scenario's result into its run, in place: the runs' scenarios finish side by
 * side, and each writes its own entry of `results` without reading the others.
 */
export async function writeScenarioRun(em: EntityManager, run: { id: string; companyId: string }, index: number, result: ScenarioRun): Promise<void> {
  await em.execute(`UPDATE agent_test_runs SET results = jsonb_set(results, ARRAY[?::text], ?::jsonb), updated_at = now() WHERE id = ? AND company_id = ?`, [
    String(index),
    JSON.stringify(result),
    run.id,
    run.companyId,
  ]);
}
