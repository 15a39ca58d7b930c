import { Migration } from '@mikro-orm/migrations';

/**
 * A call's cost in parts (docs/calls.md, "Cost"): the tokens its conversation's model read and
 * wrote, and the telephony, model and recording parts of `cost`, which stays their total. A call
 * stored before had only its telephony priced: that part is its cost. The turns' latency
 * breakdown lives in `transcript_object` and needs no column.
 */
export class Migration20261127150000_turn_latency_cost extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "calls" add column "llm_input_tokens" int not null default 0, add column "llm_output_tokens" int not null default 0, add column "cost_telephony" numeric(12,4) not null default 0, add column "cost_llm" numeric(12,4) not null default 0, add column "cost_recording" numeric(12,4) not null default 0;`,
    );
    this.addSql(`update "calls" set "cost_telephony" = "cost" where "cost" <> 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "calls" drop column "llm_input_tokens", drop column "llm_output_tokens", drop column "cost_telephony", drop column "cost_llm", drop column "cost_recording";`);
  }
}
