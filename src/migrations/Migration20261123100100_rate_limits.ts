import { Migration } from '@mikro-orm/migrations';

/**
 * The counters of rate-limiter-flexible's RateLimiterPostgres (src/services/platform/rate-limit.service.ts),
 * created here rather than by the library at start, so that replicas never race on DDL.
 * Its columns are the library's (`key`, `points`, `expire` in epoch ms), except `key` is
 * text: a JWT credential key can outgrow the library's varchar(255). UNLOGGED: counters of
 * one-minute windows are not worth a WAL write per request; a crash only resets them.
 */
export class Migration20261123100100_rate_limits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create unlogged table "rate_limits" ("key" text not null, "points" integer not null default 0, "expire" bigint null, constraint "rate_limits_pkey" primary key ("key"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rate_limits";`);
  }
}
