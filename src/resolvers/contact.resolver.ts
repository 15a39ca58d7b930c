import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { foundOrNull } from '../graphql/lookup';
import { pageInput, presentFilters } from '../graphql/input';
import { perNode } from '../graphql/limits';
import { CampaignType } from '../schema/campaign.type';
import { type Connection, connectionOf } from '../schema/connection.type';
import { CreateContactInput, ImportContactsCsvInput, UpdateContactInput } from '../schema/contact.input';
import { ContactConnection, ContactCsvImportType, ContactType } from '../schema/contact.type';
import { ContactsArgs, PageArgs } from '../schema/page.args';
import { CallConnection, type CallType } from '../schema/call.type';
import type { ContactService } from '../services/contacts/contact.service';
import type { ContactView } from '../services/contacts/contact.contract';
import type { ContactCreateInput, ContactUpdateInput } from '../services/contacts/contact.input';

const one = (created: ContactView | ContactView[]): ContactView => (Array.isArray(created) ? created[0] : created);

@Resolver(() => ContactType)
export class ContactResolver {
  constructor(private readonly contactService: ContactService) {}

  @Query(() => ContactType, { nullable: true, description: 'One contact of your company; null when there is none with this id.' })
  async contact(@Arg('id', () => ID, { description: 'The contact id.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<ContactType | null> {
    return foundOrNull(this.contactService.get(caller, id));
  }

  @Query(() => ContactConnection, { complexity: perNode, description: 'Contacts, newest first; every filter optional.' })
  async contacts(@Args(() => ContactsArgs) { first, after, ...filters }: ContactsArgs, @Ctx() { caller }: GraphQLContext): Promise<Connection<ContactType>> {
    const input = { ...presentFilters(filters), ...pageInput(first, after) };
    return connectionOf({ page: await this.contactService.page(caller, input), node: (contact) => contact, count: () => this.contactService.count(caller, input), after });
  }

  @Mutation(() => ContactType, { description: 'Creates a contact.' })
  async createContact(@Arg('input', () => CreateContactInput, { description: 'The fields to write.' }) input: ContactCreateInput, @Ctx() { caller }: GraphQLContext): Promise<ContactType> {
    return one(await this.contactService.create(caller, input));
  }

  @Mutation(() => [ContactType], { description: 'Imports up to 10,000 contacts, all or nothing; errors name rows by index ([3].phoneNumber).' })
  async importContacts(@Arg('input', () => [CreateContactInput], { description: 'The fields to write.' }) input: ContactCreateInput[], @Ctx() { caller }: GraphQLContext): Promise<ContactType[]> {
    const created = await this.contactService.create(caller, input);
    return Array.isArray(created) ? created : [created];
  }

  @Mutation(() => ContactCsvImportType, {
    description:
      'Imports contacts from CSV text, all or nothing; errors name rows by spreadsheet line ([14].phoneNumber, the header is line 1). Files over 5 MiB go through REST (POST /v1/contacts/import).',
  })
  async importContactsCsv(
    @Arg('input', () => ImportContactsCsvInput, { description: 'The CSV text and how to read it.' }) { csv, ...options }: ImportContactsCsvInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<ContactCsvImportType> {
    return this.contactService.importCsv(caller, presentFilters(options), [csv]);
  }

  @Mutation(() => ContactType, { description: 'Partial update of one of your contacts.' })
  async updateContact(
    @Arg('id', () => ID, { description: 'Id of the record.' }) id: string,
    @Arg('input', () => UpdateContactInput, { description: 'The fields to write.' }) input: ContactUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<ContactType> {
    return this.contactService.update(caller, id, input);
  }

  @Mutation(() => ID, { description: 'Soft delete; answers the id.' })
  async deleteContact(@Arg('id', () => ID, { description: 'Id of the record.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<string> {
    await this.contactService.delete(caller, id);
    return id;
  }

  @FieldResolver(() => CallConnection, { complexity: perNode, description: "The contact's calls, newest first (batched: one query for every contact of a list)." })
  async calls(@Root() contact: ContactType, @Args() { first, after }: PageArgs, @Ctx() { loaders }: GraphQLContext): Promise<Connection<CallType>> {
    const page = await loaders.contactCalls.load({ parentId: contact.id, ...pageInput(first, after) });
    return connectionOf({ page, node: (call) => call, count: () => loaders.contactCallCount.load(contact.id), after });
  }

  @FieldResolver(() => CampaignType, { nullable: true, description: 'The campaign, if any (read on demand, batched).' })
  async campaign(@Root() contact: ContactType, @Ctx() { loaders }: GraphQLContext): Promise<CampaignType | null> {
    return contact.campaignId ? loaders.campaign.load(contact.campaignId) : null;
  }
}
