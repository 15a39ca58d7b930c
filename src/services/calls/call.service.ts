import type { z } from 'zod';
import { Call } from '../../entities';
import {
  callById,
  callForEvent,
  type CallFilters,
  type CallRelatedFields,
  type CallRelatedRows,
  callsCount,
  callsPage,
  type CallServiceOptions,
  type CampaignCallBatch,
  insertCampaignCalls,
  makeCall,
  type NewCampaignCall,
  type StoredCampaignCall,
} from './call.store';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CallLifecycleService } from './call-lifecycle.service';
import { NotFoundError, PreconditionError, ValidationError } from '../shared/errors';
import { createUnderKey } from '../platform/idempotency.service';
import { page as pageInput } from '../shared/common.input';
import { type ListCallsInput, listCallsInput, makeCallInput, type MakeCallInput, makeCallWrite } from './call.input';
import { countPerParent, decodeCursor, encodeCursor, newestFirstPerParent, type Page, type PerParent } from '../shared/pagination';
import type { Clock } from '../shared/clock';
import type { PhoneParser } from '../shared/phone';
import { findOwned, parseId } from '../shared/records';
import { fieldsOfStored, viewOfStored } from '../shared/contract';
import { agentContract, type AgentView } from '../agents/agent.contract';
import { contactContract, type ContactView } from '../contacts/contact.contract';
import { alone, type StoredView, type ViewReads } from '../../db/statements';
import { makeCallRefusal, type MakeCallRefusal } from './make-call-checks';
import { callFieldsOf, callStoredFields, callStoredView, type CallStoredView, type CallView, toCallView, toStoredCallView } from './call.contract';
import type { Caller, Scope } from '../shared/scope';
import type { OperationLimits } from '../platform/rate-limit.service';
import { parseInput } from '../shared/validation';

/** What calls are grouped by for the batched pages of a list (GraphQL's Campaign.calls and Contact.calls). */
export type CallParent = 'campaign' | 'contact';

export type { CallRelatedFields } from './call.store';

/**
 * The agent and contact a call of a page holds when `list` was asked for them (`related`):
 * the fields asked (and the id), or null when the call has none the company may read.
 */
export interface CallRelated {
  aiAgent?: Partial<AgentView> | null;
  contact?: Partial<ContactView> | null;
}

/** Why make-call refused (`makeCallRefusal`), as the error each surface maps. */
const MAKE_CALL_REFUSALS: Record<MakeCallRefusal, () => Error> = {
  agent: () => new NotFoundError('Agent'),
  version: () => ValidationError.of('aiAgentVersion', 'No such version of this agent'),
  from: () => new PreconditionError('callFrom is not a phone number of this company', 'callFrom'),
  suppressed: () => new PreconditionError('callTo is on the do-not-call list', 'callTo'),
};

/** The calls list's filters as the store reads them (`callsPage`, `callsCount`): its instants as dates. */
function storeFilters({ campaignId, contactId, workspace, status, createdAfter, createdBefore }: z.output<typeof listCallsInput>): CallFilters {
  return { campaignId, contactId, workspace, status, createdAfter: createdAfter ? new Date(createdAfter) : undefined, createdBefore: createdBefore ? new Date(createdBefore) : undefined };
}

/** Calls: placing them, reading them, cancelling them. */
export class CallService {
  static readonly limits = { makeCall: 'make-call' } as const satisfies OperationLimits<CallService>;

  /** make-call's schema, phone numbers read by this service's parser. */
  private readonly makeCallWrite;
  /** The documented make-call body; /openapi.json describes it. */
  readonly makeCallInput;

  constructor(
    phones: PhoneParser,
    private readonly lifecycle: CallLifecycleService,
    private readonly options: CallServiceOptions,
    /** Where `get` reads: the side pool (docs/performance.md, "by-id fast path"). */
    private readonly reads: ViewReads,
    private readonly clock: Clock,
  ) {
    this.makeCallWrite = makeCallWrite(phones);
    this.makeCallInput = makeCallInput(phones);
  }

  /**
   * make-call (interface 4.1): a test call with one of the company's agents, from a number
   * the company owns, to any valid number not on the company's do-not-call list. Answers
   * `pstn-queued`; dialing follows.
   */
  async makeCall(caller: Caller, input: MakeCallInput): Promise<CallView> {
    const body = parseInput(this.makeCallWrite, input);
    const companyId = caller.scope.companyId;
    const made = await createUnderKey(
      caller,
      alone,
      (on) =>
        makeCall(
          on,
          this.reads,
          companyId,
          {
            at: this.clock.now(),
            agentId: body.aiAgentId,
            version: body.aiAgentVersion ?? null,
            from: body.callFrom.e164,
            to: body.callTo.e164,
            workspace: body.workspace,
            dynamicVariables: body.dynamicVariables ?? [],
          },
          this.options,
        ),
      (result) => (result.call ? [result.call.id] : []),
    );
    if (made.call === null) {
      const refused = makeCallRefusal(made.checks);
      if (!refused) throw new Error('make-call stored no call although its checks passed');
      throw MAKE_CALL_REFUSALS[refused]();
    }
    const { call } = made;
    await this.lifecycle.enqueueMany(companyId, [{ id: call.id, campaignId: null, workspace: call.workspaceId }]);
    return toCallView(viewOfStored(callStoredView, call));
  }

  /**
   * Stores a batch of campaign calls (`is_test` false) in the transaction open on `em`, in
   * one statement. The unique key on (campaign, contact, attempt) makes it idempotent: an
   * attempt stored before is not stored again but answered with its call (`created` false).
   * Queue the created calls with `queueCampaignCalls` once the transaction has committed.
   * `now` stamps them: the dialer's clock, the one later transitions and the timeout sweep read.
   */
  async createCampaignCalls(em: EntityManager, batch: CampaignCallBatch, calls: NewCampaignCall[], now: Date): Promise<StoredCampaignCall[]> {
    if (calls.length === 0) return [];
    return insertCampaignCalls(em, batch, calls, now, this.options);
  }

  /** Queues campaign calls for dialing once the transaction that stored them has committed. */
  async queueCampaignCalls(batch: CampaignCallBatch, callIds: string[]): Promise<void> {
    await this.lifecycle.enqueueMany(
      batch.companyId,
      callIds.map((id) => ({ id, campaignId: batch.campaignId, workspace: batch.workspace })),
    );
  }

  /** Ends a call not yet ended; a call already ended is a ConflictError. */
  async cancel(caller: Caller, id: string): Promise<CallView> {
    return toCallView(await this.lifecycle.cancel(caller, await this.find(caller, id)));
  }

  /** One call of the company by one prepared statement on the reads' pool (no EntityManager, no entity). */
  async get({ scope }: Caller, id: string): Promise<CallView> {
    return this.found(await callById(this.reads, scope.companyId, parseId(id)));
  }

  /**
   * A call of the company as `get` reads it, for a subscription event (its id is the
   * event's, ours): the company's events read at once share a statement (`callForEvent`).
   */
  async getForEvent({ scope }: Caller, id: string): Promise<CallView> {
    return this.found(await callForEvent(this.reads, scope.companyId, id));
  }

  private found(call: StoredView<CallStoredView> | null): CallView {
    if (!call) throw new NotFoundError('Call');
    return toCallView(viewOfStored(callStoredView, call));
  }

  /**
   * A page of the company's calls, newest first: one prepared statement on the reads' pool,
   * each row's view made from its columns (`callsPage`). With `fields`, each view holds those
   * fields only, besides `id` and `createdAt` (its cursor), and only the columns they are
   * made from are read (a reader that reads no other field: GraphQL, which resolves the
   * fields a query selects). With `related`, each call also holds its agent and contact
   * (`aiAgent`, `contact`: those fields of them and their ids, or null), read in the same
   * statement, as tenancy lets `AgentService.getMany` and `ContactService.getMany` read them.
   */
  async list<K extends keyof CallView = keyof CallView>(
    caller: Caller,
    input: ListCallsInput,
    fields?: readonly K[],
    related: CallRelatedFields = {},
  ): Promise<Page<Pick<CallView, K | 'id' | 'createdAt'> & CallRelated>> {
    const withRelated = <T extends object>(view: T, row: CallRelatedRows): T & CallRelated => {
      const out: T & CallRelated = view;
      if (related.aiAgent) out.aiAgent = row.aiAgent && fieldsOfStored(agentContract.view, row.aiAgent, ['id', ...related.aiAgent]);
      if (related.contact) out.contact = row.contact && fieldsOfStored(contactContract.view, row.contact, ['id', ...related.contact]);
      return out;
    };
    if (!fields) return this.pageOf(caller, input, undefined, (row) => withRelated(toCallView(viewOfStored(callStoredView, row)), row), related);
    const shown = [...new Set<K | 'id' | 'createdAt'>(['id', 'createdAt', ...fields])];
    return this.pageOf(caller, input, callStoredFields(shown), (row) => withRelated(callFieldsOf(row, shown), row), related);
  }

  /**
   * The page `list` answers, every field of each call, as stored views (instants as the ISO
   * text read, `toStoredCallView`): what REST writes, with no Date made for an instant.
   */
  async listStored(caller: Caller, input: ListCallsInput): Promise<Page<StoredView<CallView>>> {
    return this.pageOf(caller, input, undefined, toStoredCallView);
  }

  /** A page of `callsPage`'s rows of `columns` (every stored field when absent) and `related` records, each made into an item by `item`. */
  private async pageOf<C extends keyof CallStoredView, T extends { id: string; createdAt: Date | string }>(
    { scope }: Caller,
    input: ListCallsInput,
    columns: readonly C[] | undefined,
    item: (row: StoredView<Pick<CallStoredView, C>> & CallRelatedRows) => T,
    related?: CallRelatedFields,
  ): Promise<Page<T>> {
    const parsed = parseInput(listCallsInput, input);
    const { limit, cursor } = parsed;
    const rows = await callsPage(this.reads, scope.companyId, storeFilters(parsed), cursor ? decodeCursor(cursor) : undefined, limit + 1, columns, related);
    const items = rows.slice(0, limit).map(item);
    return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]) : null };
  }

  /** How many calls `list` would page through with the same filters. */
  async count({ scope }: Caller, input: ListCallsInput): Promise<number> {
    return callsCount(this.reads, scope.companyId, storeFilters(parseInput(listCallsInput, input)));
  }

  /** The latest calls of each campaign (or contact), a page per parent, in one query. */
  async pageByParents({ scope, em }: Caller, parent: CallParent, parentIds: readonly string[], input: z.input<ReturnType<typeof pageInput>>): Promise<Map<string, Page<CallView>>> {
    const pages = await newestFirstPerParent(em, Call, this.perParent(scope, parent, parentIds), parseInput(pageInput(), input));
    return new Map([...pages].map(([parentId, page]) => [parentId, { ...page, items: page.items.map(toCallView) }]));
  }

  /** How many calls each campaign (or contact) has, in one query. */
  async countByParents({ scope, em }: Caller, parent: CallParent, parentIds: readonly string[]): Promise<Map<string, number>> {
    return countPerParent(em, Call, this.perParent(scope, parent, parentIds));
  }

  private async find({ scope, em }: Caller, id: string): Promise<Call> {
    return findOwned(em, Call, 'Call', { id: parseId(id), company: scope.companyId, deletedAt: null });
  }

  private perParent(scope: Scope, parent: CallParent, parentIds: readonly string[]): PerParent<Call> {
    return { parent, parentIds, where: { company: scope.companyId, deletedAt: null } };
  }
}
