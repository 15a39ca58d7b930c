import type pg from 'pg';

/**
 * The history `npm run bench:volume` gives a company: its contacts and its calls, written by
 * PostgreSQL itself (`INSERT … SELECT … FROM generate_series`), not through the API: rows
 * made on the server cost no client encoding, no network and no parsing, where `COPY FROM
 * STDIN` would ship each of the 6 million rows from this process (docs/performance.md,
 * "Volume"). Every value is a function of the row's number, so two runs seed the same data.
 */
export interface History {
  companyId: string;
  contacts: number;
  calls: number;
  /** The calls spread evenly over this many days up to `now`. */
  days: number;
  /** Ids the calls name: the company's agents and campaigns (made through the API). */
  agentIds: string[];
  campaignIds: string[];
  /** The company's calling number (E.164). */
  callFrom: string;
  /** Prefix of the contacts' numbers: `+1` and an area code (`contactNumber`). */
  phonePrefix: string;
  now: Date;
}

const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Carlos',
  'Karen',
  'Daniel',
  'Lisa',
  'Matthew',
  'Nancy',
  'Anthony',
  'Betty',
  'Mark',
  'Sandra',
  'Wei',
  'Ashley',
  'Steven',
  'Kimberly',
  'Paul',
  'Emily',
  'Andrew',
  'Donna',
  'Joshua',
  'Michelle',
  'Ahmed',
  'Priya',
];
const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Patel',
  'Kim',
  'Chen',
  'Singh',
  'Murphy',
  'Cook',
  'Rogers',
  'Morgan',
  'Cooper',
  'Reed',
];
const SOURCES = ['csv-import', 'csv-import', 'hubspot', 'salesforce', 'web-form', 'api', 'manual'];
const CATEGORIES = ['retail', 'b2b', 'healthcare', 'education', 'real-estate', 'insurance'];
const CITIES = ['New York', 'Los Angeles', 'Chicago', 'Houston', 'Phoenix', 'Philadelphia', 'San Antonio', 'San Diego', 'Dallas', 'Austin', 'Seattle', 'Denver'];
const PLANS = ['free', 'starter', 'pro', 'enterprise'];
/** The tags of a contact: a few large ones and many small ones (an event each, 0.5% of the contacts). */
export const TAGS = { large: 'lead', small: 'event-7' } as const;

const array = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]`;
const pick = (values: readonly string[], index: string) => `(${array(values)})[1 + (${index}) % ${values.length}]`;

/** The id of the company's contact number `n` (1-based): the calls name their contacts by it. */
const contactId = (n: string) => `md5($1::text || ':contact:' || (${n}))::uuid`;

/**
 * The number of contact `n` after the area code `prefix`: an exchange from 200 (a valid one,
 * as libphonenumber and so the search by number read it) and four digits, 10,000 contacts an
 * exchange; the calls dial their contacts' numbers.
 */
const contactNumber = (prefix: string, n: string) => `${prefix} || (200 + (${n}) / 10000 % 800)::text || lpad(((${n}) % 10000)::text, 4, '0')`;

/**
 * `contacts` contacts, the newest `now`, one every 30 s before it: names from 40 × 60 first
 * and last names, numbers in `phonePrefix`'s area (`contactNumber`), a tag (30% `lead`, 20% `customer`, 10%
 * each `trial` and `churn-risk`, 5% `vip`, the rest one of 50 event tags), a source, a
 * category, metadata (plan, city, customer id, signup year); 2% inactive, 1% deleted, a fifth
 * added to one of the campaigns, two thirds with a latest call.
 */
export async function seedContacts(sql: pg.ClientBase, h: History): Promise<void> {
  const campaign = `CASE WHEN g % 5 = 0 THEN ($4::uuid[])[1 + (g / 5) % ${Math.max(1, h.campaignIds.length)}] END`;
  await sql.query(
    `INSERT INTO contacts (id, created_at, updated_at, company_id, campaign_id, firstname, lastname, phone_number, number_country_code, metadata,
       last_call_status, last_call_at, last_call_duration, source_name, tag_name, category_name, notes, status, deleted_at)
     SELECT ${contactId('g')}, at, at, $1::uuid, ${campaign},
       ${pick(FIRST_NAMES, 'g')}, ${pick(LAST_NAMES, 'g / 40')},
       ${contactNumber('$3', 'g')}, '1',
       jsonb_build_object('plan', ${pick(PLANS, 'g / 7')}, 'city', ${pick(CITIES, 'g / 3')}, 'customer_id', 'cus_' || g, 'signup_year', 2019 + g % 7),
       CASE WHEN g % 3 <> 0 THEN ${pick(['picked-up', 'picked-up', 'no-answer', 'busy', 'voicemail'], 'g / 3')} END,
       CASE WHEN g % 3 <> 0 THEN at + interval '2 days' END,
       CASE WHEN g % 3 <> 0 THEN 20 + g % 280 END,
       ${pick(SOURCES, 'g / 11')},
       CASE WHEN g % 100 < 30 THEN 'lead' WHEN g % 100 < 50 THEN 'customer' WHEN g % 100 < 60 THEN 'trial' WHEN g % 100 < 70 THEN 'churn-risk'
            WHEN g % 100 < 75 THEN 'vip' ELSE 'event-' || (g / 100) % 50 END,
       ${pick(CATEGORIES, 'g / 13')},
       CASE WHEN g % 20 = 0 THEN 'Asked to be called after 5pm.' ELSE '' END,
       CASE WHEN g % 50 = 1 THEN 'inactive' ELSE 'active' END,
       CASE WHEN g % 100 = 7 THEN at + interval '1 day' END
     FROM (SELECT g, date_trunc('milliseconds', $2::timestamptz - make_interval(secs => ($5::int - g) * 30)) AS at FROM generate_series(1, $5::int) g) s`,
    [h.companyId, h.now, h.phonePrefix, h.campaignIds, h.contacts],
  );
}

/**
 * `calls` calls spread evenly over `days` days up to `now`, each to one of the contacts (in
 * turn), 70% placed by one of the campaigns, by one of the agents; ended: 55% completed (a
 * tenth of them by a machine), 20% no-answer, 10% busy, 8% failed, 7% canceled; the answered
 * ones with a duration, costs, tokens, a transcript of about 300 characters and its four
 * turns (`transcript_object`), the agent's two with their answer latency (`latency_ms`, what
 * the analytics' percentiles read).
 */
export async function seedCalls(sql: pg.ClientBase, h: History): Promise<void> {
  const campaign = `CASE WHEN g % 10 < 7 THEN ($5::uuid[])[1 + (g / 10) % ${Math.max(1, h.campaignIds.length)}] END`;
  await sql.query(
    `INSERT INTO calls (id, created_at, updated_at, company_id, ai_agent_id, campaign_id, contact_id, workspace_id, call_sid, call_provider,
       call_from, call_to, call_duration, call_status, call_direction, cost, price_unit, latency, disconnect_reason, analysis_sentiment,
       agent_task_status, agent_task_feedback, metadata, agent_dynamic_variables, transcript, transcript_object, started_at, ended_at, dispatched_at,
       campaign_attempt, answered_by, llm_input_tokens, llm_output_tokens, cost_telephony, cost_llm)
     SELECT gen_random_uuid(), at, at + make_interval(secs => 5 + duration), $1::uuid, ($4::uuid[])[1 + g % ${h.agentIds.length}], campaign, ${contactId('k')},
       'default', 'CA' || md5($1::text || ':call:' || g), 'twilio', $6, ${contactNumber('$7', 'k')}, duration, status, 'outgoing',
       round(duration * 0.0021, 4), 'USD', CASE WHEN duration > 0 THEN 600 + g % 900 ELSE 0 END,
       CASE status WHEN 'completed' THEN 'hangup' WHEN 'failed' THEN 'provider-error' ELSE '' END,
       CASE WHEN status = 'completed' THEN ${pick(['positive', 'neutral', 'negative'], 'g / 7')} ELSE '' END,
       CASE WHEN status = 'completed' THEN ${pick(['done', 'done', 'not-done'], 'g / 5')} ELSE '' END, '',
       jsonb_build_object('batch', 'b' || (g / 10000)), '{}'::jsonb,
       CASE WHEN duration > 0 THEN 'Agent: Hello, this is Ava calling from Acme about your account. Is now a good time?' || E'\\n' ||
         'User: Yes, go ahead.' || E'\\n' || 'Agent: Thank you. Your plan renews on the first; would you like to keep it as it is?' || E'\\n' ||
         'User: ' || ${pick(['Yes, keep it.', 'No, please cancel.', 'Call me back next week.', 'Can you send me an email?'], 'g / 3')} END,
       CASE WHEN duration > 0 THEN jsonb_build_object('turns', jsonb_build_array(
         jsonb_build_object('role', 'agent', 'text', 'Hello, this is Ava calling from Acme about your account. Is now a good time?', 'latency_ms', 300 + g % 700),
         jsonb_build_object('role', 'user', 'text', 'Yes, go ahead.'),
         jsonb_build_object('role', 'agent', 'text', 'Your plan renews on the first; would you like to keep it as it is?', 'latency_ms', 350 + (g * 13) % 900),
         jsonb_build_object('role', 'user', 'text', ${pick(['Yes, keep it.', 'No, please cancel.', 'Call me back next week.', 'Can you send me an email?'], 'g / 3')}))) END,
       CASE WHEN duration > 0 THEN at + interval '4 seconds' END, at + make_interval(secs => 5 + duration), at,
       CASE WHEN campaign IS NOT NULL THEN 1 + (g - 1) / $3::int END,
       CASE WHEN status = 'completed' THEN CASE WHEN g % 10 = 3 THEN 'machine' ELSE 'human' END END,
       CASE WHEN duration > 0 THEN duration * 40 ELSE 0 END, CASE WHEN duration > 0 THEN duration * 12 ELSE 0 END,
       round(duration * 0.0014, 4), round(duration * 0.0007, 4)
     FROM (
       SELECT g, k, ${campaign} AS campaign,
         date_trunc('milliseconds', $2::timestamptz - make_interval(secs => ($8::bigint - g) * ${(h.days * 86_400) / h.calls})) AS at,
         status, CASE WHEN status = 'completed' THEN 15 + (g * 7) % 285 ELSE 0 END AS duration
       FROM (SELECT g, 1 + (g - 1) % $3::int AS k,
               CASE WHEN g % 100 < 55 THEN 'completed' WHEN g % 100 < 75 THEN 'no-answer' WHEN g % 100 < 85 THEN 'busy'
                    WHEN g % 100 < 93 THEN 'failed' ELSE 'canceled' END AS status
             FROM generate_series(1, $8::int) g) n
     ) s`,
    [h.companyId, h.now, h.contacts, h.agentIds, h.campaignIds, h.callFrom, h.phonePrefix, h.calls],
  );
}

/**
 * Runs `load` on one connection as a bulk load is done: the secondary indexes of `tables`
 * dropped first and built again after from their own definitions (one sort each instead of
 * millions of insertions), foreign-key triggers off (`session_replication_role = replica`:
 * the seed names only rows it made), a large `maintenance_work_mem` for the builds. The
 * primary keys and unique constraints stay.
 */
export async function bulkLoad(sql: pg.ClientBase, tables: string[], load: () => Promise<void>): Promise<void> {
  const { rows: indexes } = await sql.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid
      WHERE i.indrelid = ANY($1::regclass[]) AND c.oid IS NULL`,
    [tables],
  );
  await sql.query(`SET session_replication_role = replica; SET maintenance_work_mem = '1GB'; SET max_parallel_maintenance_workers = 2`);
  for (const index of indexes) await sql.query(`DROP INDEX ${index.name}`);
  try {
    await load();
  } finally {
    for (const index of indexes) await sql.query(index.definition);
    await sql.query('RESET session_replication_role; RESET maintenance_work_mem; RESET max_parallel_maintenance_workers');
  }
}
