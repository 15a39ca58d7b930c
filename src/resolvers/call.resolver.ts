import { Args, Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { pageInput, toFilterInput, toServiceInput } from '../graphql/input';
import { perNode } from '../graphql/limits';
import { ownEvents } from '../graphql/subscriptions';
import { AiAgentType, toAiAgentType } from '../schema/ai-agent.type';
import { MakeCallInput, SimulateInboundCallInput } from '../schema/call.input';
import { CallConnection, CallType, toCallType } from '../schema/call.type';
import { CampaignType, toCampaignType } from '../schema/campaign.type';
import { type Connection, connectionOf } from '../schema/connection.type';
import { ContactType, toContactType } from '../schema/contact.type';
import { CallsArgs, CallStatusChangedArgs } from '../schema/page.args';
import type { CallService } from '../services/call.service';
import { NotFoundError } from '../services/errors';
import type { InboundCallService } from '../services/inbound/inbound-call.service';
import type { RateLimitService } from '../services/rate-limit.service';
import type { Topics } from '../services/events';

type CallEvent = Topics['call.updated'];

const matches = (f: CallStatusChangedArgs, e: CallEvent): boolean =>
  (!f.callId || f.callId === e.callId) && (!f.campaignId || f.campaignId === e.campaignId) && (!f.workspace || f.workspace === e.workspace);

@Resolver(() => CallType)
export class CallResolver {
  constructor(
    private readonly callService: CallService,
    private readonly rateLimits: RateLimitService,
    private readonly inbound: InboundCallService,
  ) {}

  @Query(() => CallType, { description: 'One call of your company.' })
  async call(@Arg('id', () => ID) id: string, @Ctx() { caller }: GraphQLContext): Promise<CallType> {
    return toCallType(await this.callService.get(caller, id));
  }

  @Query(() => CallConnection, { complexity: perNode, description: 'Calls, newest first; every filter optional.' })
  async calls(@Args() { first, after, ...filters }: CallsArgs, @Ctx() { caller }: GraphQLContext): Promise<Connection<CallType>> {
    const input = { ...toFilterInput(filters), ...pageInput(first, after) };
    return connectionOf({ page: await this.callService.list(caller, input), node: toCallType, count: () => this.callService.count(caller, input) });
  }

  @Mutation(() => CallType, { description: 'Places a test call (pstn-queued).' })
  async makeCall(@Arg('input') input: MakeCallInput, @Ctx() { caller }: GraphQLContext): Promise<CallType> {
    await this.rateLimits.consume(caller.scope, ['make-call']);
    return toCallType(await this.callService.makeCall(caller, toServiceInput(input)));
  }

  @Mutation(() => CallType, {
    description: "Simulates an incoming call to one of your numbers (a test call): answered by its agent, or busy over the concurrent-call limit (docs/calls.md).",
  })
  async simulateInboundCall(@Arg('input') input: SimulateInboundCallInput, @Ctx() { caller }: GraphQLContext): Promise<CallType> {
    return toCallType(await this.inbound.simulate(caller, toServiceInput(input)));
  }

  @Mutation(() => CallType, { description: 'Ends a call not yet ended: cancelled while ringing, hung up once answered.' })
  async cancelCall(@Arg('id', () => ID) id: string, @Ctx() { caller }: GraphQLContext): Promise<CallType> {
    return toCallType(await this.callService.cancel(caller, id));
  }

  @Subscription(() => CallType, {
    description: "A call of your company was created, changed status, or its conversation took a turn (transcript fields). Payload: the call's current state.",
    topics: 'call.updated',
    filter: ownEvents<'call.updated', CallStatusChangedArgs>(matches),
  })
  async callStatusChanged(@Root() event: CallEvent, @Args() _filters: CallStatusChangedArgs, @Ctx() context: GraphQLContext): Promise<CallType> {
    return toCallType(await context.readForEvent(event, (caller) => this.callService.get(caller, event.callId)));
  }

  @FieldResolver(() => AiAgentType)
  async aiAgent(@Root() call: CallType, @Ctx() { loaders }: GraphQLContext): Promise<AiAgentType> {
    const agent = await loaders.agent.load(call.aiAgentId);
    if (!agent) throw new NotFoundError('Agent');
    return toAiAgentType(agent);
  }

  @FieldResolver(() => CampaignType, { nullable: true })
  async campaign(@Root() call: CallType, @Ctx() { loaders }: GraphQLContext): Promise<CampaignType | null> {
    const campaign = call.campaignId ? await loaders.campaign.load(call.campaignId) : null;
    return campaign && toCampaignType(campaign);
  }

  @FieldResolver(() => ContactType, { nullable: true })
  async contact(@Root() call: CallType, @Ctx() { loaders }: GraphQLContext): Promise<ContactType | null> {
    const contact = call.contactId ? await loaders.contact.load(call.contactId) : null;
    return contact && toContactType(contact);
  }
}
