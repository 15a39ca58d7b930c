import type { ObjectQuery } from '@mikro-orm/core';
import type { AiAgent } from '../../entities';

/**
 * Which agents a company reads and which it calls with: the one rule, for the ORM's filters
 * and the hot statements' SQL alike.
 */

/** Agents a company may read: its own (soft-deleted ones too: calls keep theirs) and the built-in templates (no company). */
export const readableAgents = (companyId: string): ObjectQuery<AiAgent> => ({ $or: [{ company: companyId }, { company: null, isTemplate: true }] });

/** Agents a company may place calls with (and give its campaigns and numbers): its own, not deleted; a template is copied first. */
export const usableAgents = (companyId: string): ObjectQuery<AiAgent> => ({ company: companyId, deletedAt: null });

/**
 * `readableAgents` as an SQL condition on the agents' row aliased `alias`, the company's id
 * being the SQL expression `company`: a parameter (`$2`), or the company column of the row the
 * agent is read for (a conversation's opening, conversation.store.ts).
 */
export const readableAgentSql = (alias: string, company: string): string => `(${alias}.company_id = ${company} OR (${alias}.company_id IS NULL AND ${alias}.is_template))`;

/**
 * `usableAgents` as an SQL condition on the agents' row aliased `alias`, whose one parameter
 * is the company's id (the hot statements that check an agent in the statement that uses it).
 */
export const usableAgentSql = (alias: string): string => `${alias}.company_id = ?::uuid AND ${alias}.deleted_at IS NULL`;
