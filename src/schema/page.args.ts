import { ArgsType, Field, ID, Int } from 'type-graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../graphql/input';
import { CallStatus } from './call.enum';

/** Relay forward pagination, newest first. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` })
  first!: number;

  @Field(() => String, { nullable: true, description: '`endCursor` of the previous page.' })
  after?: string | null;
}

@ArgsType()
export class CallsArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'Only calls of this campaign.' })
  campaignId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only calls to or from this contact.' })
  contactId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only calls of this workspace.' })
  workspace?: string | null;

  @Field(() => CallStatus, { nullable: true, description: 'Only calls in this status.' })
  status?: CallStatus | null;

  @Field(() => String, { nullable: true, description: 'Only calls created at or after this instant (ISO 8601 with offset, e.g. 2026-11-24T00:00:00Z).' })
  createdAfter?: string | null;

  @Field(() => String, { nullable: true, description: 'Only calls created before this instant (ISO 8601 with offset).' })
  createdBefore?: string | null;
}

@ArgsType()
export class CampaignsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Only campaigns of this workspace; all when left out.' })
  workspace?: string | null;
}

@ArgsType()
export class ContactsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Only contacts of this status (active, inactive).' })
  status?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only contacts added to this campaign.' })
  campaignId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only contacts with exactly this tag.' })
  tagName?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'A name or a number: every word part of the first or last name, in any order and case; without letters, a number in any format ((415) 555-2671), or part of one (its digits).',
  })
  search?: string | null;
}

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
