/**
 * What make-call's statement found (`makeCall` in call.store.ts): whether the agent is one the
 * company may call with (agents/agent-ownership.ts), whether it has the version asked for (true
 * when none was), whether the company owns the number calling from, whether the number called
 * is on its do-not-call list.
 */
export interface MakeCallChecks {
  agentUsable: boolean;
  versionFound: boolean;
  fromOwned: boolean;
  toSuppressed: boolean;
}

/** Why make-call refused a call: its agent, its agent's version, its `from`, its `to` (suppressed). */
export type MakeCallRefusal = 'agent' | 'version' | 'from' | 'suppressed';

/**
 * The check that refuses the call, the first in the order the API reports them (agent, its
 * version, then `from`, then `to`); null when every check passes and the call is stored.
 */
export function makeCallRefusal(checks: MakeCallChecks): MakeCallRefusal | null {
  if (!checks.agentUsable) return 'agent';
  if (!checks.versionFound) return 'version';
  if (!checks.fromOwned) return 'from';
  if (checks.toSuppressed) return 'suppressed';
  return null;
}
