import { Migration } from '@mikro-orm/migrations';

/**
 * An agent's fixed welcome greeting (docs/agents.md, "Every agent field"): said as its first
 * turn instead of a generated one; null (the default) keeps the model's greeting.
 */
export class Migration20261127160000_agent_greeting extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ai_agents" add column "welcome_greeting" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ai_agents" drop column "welcome_greeting";`);
  }
}
