import { Migration20261122083223 } from './Migration20261122083223';
import { Migration20261122090000_catalogue } from './Migration20261122090000_catalogue';
import { Migration20261122092354_call_dispatch } from './Migration20261122092354_call_dispatch';
import { Migration20261122092620_flow_runs } from './Migration20261122092620_flow_runs';
import { Migration20261123100000_do_not_call } from './Migration20261123100000_do_not_call';
import { Migration20261123100100_rate_limits } from './Migration20261123100100_rate_limits';
import { Migration20261123101000_campaign_dialer } from './Migration20261123101000_campaign_dialer';
import { Migration20261123230000_unresolved_variables } from './Migration20261123230000_unresolved_variables';
import { Migration20261123230100_flow_events } from './Migration20261123230100_flow_events';
import { Migration20261123230150_idempotency_keys } from './Migration20261123230150_idempotency_keys';
import { Migration20261123230200_step_run_retryable } from './Migration20261123230200_step_run_retryable';
import { Migration20261123233000_inbound_calls } from './Migration20261123233000_inbound_calls';
import { Migration20261124080000_waiting_calls } from './Migration20261124080000_waiting_calls';
import { Migration20261126120000_local_flow_steps } from './Migration20261126120000_local_flow_steps';
import { Migration20261126220000_flow_tool_arguments } from './Migration20261126220000_flow_tool_arguments';
import { Migration20261127090000_phone_number_holder } from './Migration20261127090000_phone_number_holder';
import { Migration20261127100000_relay_sessions } from './Migration20261127100000_relay_sessions';
import { Migration20261127110000_sealed_flow_secrets } from './Migration20261127110000_sealed_flow_secrets';
import { Migration20261127120000_idempotency_links } from './Migration20261127120000_idempotency_links';
import { Migration20261127130000_voicemail_recording } from './Migration20261127130000_voicemail_recording';
import { Migration20261127140000_call_continuity } from './Migration20261127140000_call_continuity';
import { Migration20261127160000_agent_greeting } from './Migration20261127160000_agent_greeting';

/** Every migration, in order. `npm run migration:create` writes new ones; add them here. */
export const migrationsList = [
  { name: 'Migration20261122083223', class: Migration20261122083223 },
  { name: 'Migration20261122090000_catalogue', class: Migration20261122090000_catalogue },
  { name: 'Migration20261122092354_call_dispatch', class: Migration20261122092354_call_dispatch },
  { name: 'Migration20261122092620_flow_runs', class: Migration20261122092620_flow_runs },
  { name: 'Migration20261123100000_do_not_call', class: Migration20261123100000_do_not_call },
  { name: 'Migration20261123100100_rate_limits', class: Migration20261123100100_rate_limits },
  { name: 'Migration20261123101000_campaign_dialer', class: Migration20261123101000_campaign_dialer },
  { name: 'Migration20261123230000_unresolved_variables', class: Migration20261123230000_unresolved_variables },
  { name: 'Migration20261123230100_flow_events', class: Migration20261123230100_flow_events },
  { name: 'Migration20261123230150_idempotency_keys', class: Migration20261123230150_idempotency_keys },
  { name: 'Migration20261123230200_step_run_retryable', class: Migration20261123230200_step_run_retryable },
  { name: 'Migration20261123233000_inbound_calls', class: Migration20261123233000_inbound_calls },
  { name: 'Migration20261124080000_waiting_calls', class: Migration20261124080000_waiting_calls },
  { name: 'Migration20261126120000_local_flow_steps', class: Migration20261126120000_local_flow_steps },
  { name: 'Migration20261126220000_flow_tool_arguments', class: Migration20261126220000_flow_tool_arguments },
  { name: 'Migration20261127090000_phone_number_holder', class: Migration20261127090000_phone_number_holder },
  { name: 'Migration20261127100000_relay_sessions', class: Migration20261127100000_relay_sessions },
  { name: 'Migration20261127110000_sealed_flow_secrets', class: Migration20261127110000_sealed_flow_secrets },
  { name: 'Migration20261127120000_idempotency_links', class: Migration20261127120000_idempotency_links },
  { name: 'Migration20261127130000_voicemail_recording', class: Migration20261127130000_voicemail_recording },
  { name: 'Migration20261127140000_call_continuity', class: Migration20261127140000_call_continuity },
  { name: 'Migration20261127160000_agent_greeting', class: Migration20261127160000_agent_greeting },
];
