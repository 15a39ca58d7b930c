import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { Args, Arg, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { IDEMPOTENCY_KEY_DESCRIPTION, keyedMutation } from '../graphql/idempotency';
import { foundOrNull } from '../graphql/lookup';
import { pageInput, presentFilters, restNamedInput } from '../graphql/input';
import { perNode } from '../graphql/limits';
import { fieldsUnder, nodeFields } from '../graphql/selection';
import { idFilter } from '../graphql/subscriptions';
import { AiAgentType } from '../schema/ai-agent.type';
import { MakeCallInput, SimulateInboundCallInput } from '../schema/call.input';
import { CallConnection, CallType } from '../schema/call.type';
import { CampaignType } from '../schema/campaign.type';
import { type Connection, connectionOf } from '../schema/connection.type';
import { ContactType } from '../schema/contact.type';
import { CallsArgs, CallStatusChangedArgs } from '../schema/page.args';
import { type CallRelated, type CallRelatedFields, CallService } from '../services/calls/call.service';
import { agentContract } from '../services/agents/agent.contract';
import { contactContract } from '../services/contacts/contact.contract';
import { callContract, type CallView } from '../services/calls/call.contract';
import type { MakeCallInput as MakeCallServiceInput } from '../services/calls/call.input';
import { NotFoundError } from '../services/shared/errors';
import type { IdempotencyService } from '../services/platform/idempotency.service';
import type { InboundCallService } from '../services/calls/inbound/inbound-call.service';
import type { SimulateInboundInput } from '../services/calls/call.input';
import type { RateLimitService } from '../services/platform/rate-limit.service';
import type { Topics } from '../services/platform/events';

type CallEvent = Topics['call.updated'];

/** The field of the call each of its field resolvers reads (the related record's id). */
const RESOLVED_FROM = { aiAgent: 'aiAgentId', campaign: 'campaignId', contact: 'contactId' } as const satisfies Record<string, keyof CallView>;

/**
 * The fields of the call's view the nodes of a `calls` query (`nodes`: their selected fields)
 * read: those selected, and the ids its field resolvers read; every field (undefined) for a
 * selection naming a field this does not know.
 */
function callFieldsRead(nodes: readonly FieldNode[]): (keyof CallView)[] | undefined {
  const fields: (keyof CallView)[] = [];
  for (const { name } of nodes) {
    if (name.value === '__typename') continue;
    if (Object.hasOwn(RESOLVED_FROM, name.value)) fields.push(RESOLVED_FROM[name.value as keyof typeof RESOLVED_FROM]);
    else if (Object.hasOwn(callContract.view.shape, name.value)) fields.push(name.value as keyof CallView);
    else return undefined;
  }
  return fields;
}

/** The records a `calls` page reads in its own statement when its nodes select them, by field, with their views. */
const READ_WITH_PAGE = { aiAgent: agentContract.view, contact: contactContract.view } as const;

/**
 * The agent's and the contact's fields the nodes of a `calls` query (`nodes`) select, for
 * `CallService.list` to read them beside each call: those selected, or every field of the
 * view when the selection names a field of their own resolvers (an agent's `versions`).
 */
function relatedFieldsRead(info: GraphQLResolveInfo, nodes: readonly FieldNode[]): CallRelatedFields {
  const related: Record<string, string[]> = {};
  for (const [name, view] of Object.entries(READ_WITH_PAGE)) {
    if (!nodes.some((node) => node.name.value === name)) continue;
    const selected = fieldsUnder(info, nodes, name)
      .map((field) => field.name.value)
      .filter((field) => field !== '__typename');
    related[name] = selected.every((field) => Object.hasOwn(view.shape, field)) ? selected : Object.keys(view.shape);
  }
  return related;
}

/**
 * A record a call's field resolver answers: one read with the page (`CallService.list`'s
 * `related`: the fields the query selects, which are all GraphQL resolves of it), or a view.
 */
const asResolved = <T>(record: Partial<T>): T => record as T;

function foundAgent(agent: Partial<AiAgentType> | null): AiAgentType {
  if (!agent) throw new NotFoundError('Agent');
  return asResolved(agent);
}

const matches = (f: CallStatusChangedArgs, e: CallEvent): boolean => idFilter(f.callId, e.callId) && idFilter(f.campaignId, e.campaignId) && (!f.workspace || f.workspace === e.workspace);

@Resolver(() => CallType)
export class CallResolver {
  constructor(
    private readonly callService: CallService,
    private readonly rateLimits: RateLimitService,
    private readonly idempotency: IdempotencyService,
    private readonly inbound: InboundCallService,
  ) {}

  @Query(() => CallType, { nullable: true, description: 'One call of your company; null when there is none with this id.' })
  async call(@Arg('id', () => ID, { description: 'The call id.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<CallType | null> {
    return foundOrNull(this.callService.get(caller, id));
  }

  @Query(() => CallConnection, { complexity: perNode, description: 'Calls, newest first; every filter optional.' })
  async calls(@Args(() => CallsArgs) { first, after, ...filters }: CallsArgs, @Ctx() { caller }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<Connection<CallType>> {
    const input = { ...presentFilters(filters), ...pageInput(first, after) };
    // Only what the query selects is read (GraphQL resolves no other field of a node), its
    // agents and contacts in the same statement: their field resolvers then answer at once.
    const nodes = nodeFields(info);
    const page = await this.callService.list(caller, input, callFieldsRead(nodes), relatedFieldsRead(info, nodes));
    // An instance of the type's class: TypeGraphQL copies any other root into one for each field resolver it runs on it.
    return connectionOf({ page, node: (call) => Object.assign(new CallType(), call), count: () => this.callService.count(caller, input), after });
  }

  @Mutation(() => CallType, { description: 'Places a test call (pstn-queued).' })
  async makeCall(
    @Arg('input', () => MakeCallInput, { description: 'The fields to write.' }) input: MakeCallServiceInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION }) idempotencyKey: string | null,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<CallType> {
    await this.rateLimits.consume(caller.scope, [CallService.limits.makeCall]);
    return keyedMutation(this.idempotency, caller, {
      key: idempotencyKey,
      // A replay is known by the input as REST names it: the keys already kept were
      // fingerprinted so, and another naming would refuse their clients' retries (422).
      request: ['makeCall', restNamedInput(input)],
      run: (keyed) => this.callService.makeCall(keyed, input),
      reload: (id) => this.callService.get(caller, id),
    });
  }

  @Mutation(() => CallType, {
    description: 'Simulates an incoming call to one of your numbers (a test call): answered by its agent, or busy over the concurrent-call limit (docs/calls.md).',
  })
  async simulateInboundCall(
    @Arg('input', () => SimulateInboundCallInput, { description: 'The numbers of the call.' }) input: SimulateInboundInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<CallType> {
    return this.inbound.simulate(caller, input);
  }

  @Mutation(() => CallType, { description: 'Ends a call not yet ended: cancelled while ringing, hung up once answered.' })
  async cancelCall(@Arg('id', () => ID, { description: 'Id of the record.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<CallType> {
    return this.callService.cancel(caller, id);
  }

  @Subscription(() => CallType, {
    description: "A call of your company was created, changed status, or its conversation took a turn (transcript fields). Payload: the call's current state.",
    subscribe: ({ args, context }: SubscribeResolverData<unknown, CallStatusChangedArgs, GraphQLContext>) => context.events('call.updated', (event) => matches(args, event)),
  })
  async callStatusChanged(@Root() event: CallEvent, @Args() _filters: CallStatusChangedArgs, @Ctx() context: GraphQLContext): Promise<CallType> {
    return context.readForEvent('call.updated', event);
  }

  // The agent and contact: read with the page when a `calls` page holds them, else on demand, batched.
  @FieldResolver(() => AiAgentType, { description: 'The agent (read on demand, batched).' })
  aiAgent(@Root() call: CallType & CallRelated, @Ctx() { loaders }: GraphQLContext): AiAgentType | Promise<AiAgentType> {
    return call.aiAgent !== undefined ? foundAgent(call.aiAgent) : loaders.agent.load(call.aiAgentId).then(foundAgent);
  }

  @FieldResolver(() => CampaignType, { nullable: true, description: 'The campaign, if any (read on demand, batched).' })
  async campaign(@Root() call: CallType, @Ctx() { loaders }: GraphQLContext): Promise<CampaignType | null> {
    return call.campaignId ? loaders.campaign.load(call.campaignId) : null;
  }

  @FieldResolver(() => ContactType, { nullable: true, description: 'The contact, if any (read on demand, batched).' })
  contact(@Root() call: CallType & CallRelated, @Ctx() { loaders }: GraphQLContext): ContactType | null | Promise<ContactType | null> {
    if (call.contact !== undefined) return call.contact && asResolved(call.contact);
    return call.contactId ? loaders.contact.load(call.contactId) : null;
  }
}
