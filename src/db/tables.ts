/**
 * The tables the migrations make that no entity maps: plain SQL stores and a library's table.
 * The ORM's schema generator skips them (`TABLES_WITHOUT_ENTITIES`); their stores name them from here.
 */

/** The counters rate-limiter-flexible reads and writes (migration Migration20261123100100_rate_limits). */
export const RATE_LIMIT_TABLE = 'rate_limits';

/** The outbox of flow events (migration Migration20261123230100_flow_events). */
export const FLOW_EVENTS_TABLE = 'flow_events';

/** Idempotency keys (migration Migration20261123230150_idempotency_keys). */
export const IDEMPOTENCY_TABLE = 'idempotency_keys';

/** Relay sessions (migration Migration20261127100000_relay_sessions). */
export const RELAY_SESSIONS_TABLE = 'relay_sessions';

/** Each company's count of live contacts as of its last fold (migration Migration20261128020000_contact_counts). */
export const CONTACT_COUNTS_TABLE = 'contact_counts';

/** The changes to those counts since, one signed delta per company and writing statement, appended by triggers on contacts. */
export const CONTACT_COUNT_DELTAS_TABLE = 'contact_count_deltas';

/** The advisory lock (`hashtext` key) a fold of the deltas and `contact_counts_rebuild()` take: one at a time. */
export const CONTACT_COUNTS_FOLD_LOCK = 'contact-counts:fold';

/** Each company's call figures per 15-minute bucket and dimension (migration Migration20261128010000_call_rollups). */
export const CALL_ROLLUPS_TABLE = 'call_rollups';

/** The buckets whose calls changed since they were folded, appended by triggers on calls. */
export const CALL_ROLLUP_DIRTY_TABLE = 'call_rollup_dirty';

/** Each company's call figures per UTC day and dimension, summed from its 15-minute rollups (migration Migration20261129010000_call_rollup_days). */
export const CALL_ROLLUP_DAYS_TABLE = 'call_rollup_days';

export const TABLES_WITHOUT_ENTITIES = [
  RATE_LIMIT_TABLE,
  FLOW_EVENTS_TABLE,
  IDEMPOTENCY_TABLE,
  RELAY_SESSIONS_TABLE,
  CONTACT_COUNTS_TABLE,
  CONTACT_COUNT_DELTAS_TABLE,
  CALL_ROLLUPS_TABLE,
  CALL_ROLLUP_DIRTY_TABLE,
  CALL_ROLLUP_DAYS_TABLE,
];
