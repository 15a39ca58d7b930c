import { ArgsType, Field, ID, Int } from 'type-graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../graphql/input';
import { callFilters, type ListCallsInput } from '../services/calls/call.input';
import { campaignFilters } from '../services/campaigns/campaign.input';
import { pageContactsFields, type PageContactsInput } from '../services/contacts/contact.input';
import { filterArgsType } from './contract.type';
// Registers the GraphQL enums of the call aggregate, which the calls filter's status is typed with.
import './call.enum';

/** Relay forward pagination, newest first. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` })
  first!: number;

  @Field(() => String, { nullable: true, description: '`endCursor` of the previous page.' })
  after?: string | null;
}

/** The filters of a list as GraphQL arguments take them: each optional, null filtering nothing. */
type FilterArgs<T> = PageArgs & { [K in keyof T]?: T[K] | null };

export const CallsArgs = filterArgsType<FilterArgs<Omit<ListCallsInput, 'limit' | 'cursor'>>>('CallsArgs', PageArgs, callFilters);
export type CallsArgs = InstanceType<typeof CallsArgs>;

export const CampaignsArgs = filterArgsType<FilterArgs<{ workspace?: string }>>('CampaignsArgs', PageArgs, campaignFilters);
export type CampaignsArgs = InstanceType<typeof CampaignsArgs>;

export const ContactsArgs = filterArgsType<FilterArgs<Omit<PageContactsInput, 'limit' | 'cursor'>>>('ContactsArgs', PageArgs, pageContactsFields);
export type ContactsArgs = InstanceType<typeof ContactsArgs>;

/** Each argument an optional filter; all given must match. */
@ArgsType()
export class CallStatusChangedArgs {
  @Field(() => ID, { nullable: true, description: 'Only this call.' })
  callId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only calls of this campaign.' })
  campaignId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only calls of this workspace.' })
  workspace?: string | null;
}

@ArgsType()
export class WebhookExecutionUpdatedArgs {
  @Field(() => ID, { nullable: true, description: 'Only executions of this flow.' })
  webhookId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only this execution.' })
  executionId?: string | null;
}
