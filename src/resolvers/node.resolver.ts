import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { foundOrNull } from '../graphql/lookup';
import { Node, type NodeTypeName, type TaggedNode } from '../schema/node.type';
import type { Services } from '../services';
import type { Caller } from '../services/shared/scope';

type Lookup = (caller: Caller, id: string) => Promise<TaggedNode<Node> | null>;

/** One read by id per node type, through the service that owns it (tenancy included). */
function lookups(s: Pick<Services, 'calls' | 'campaigns' | 'contacts' | 'agents' | 'webhooks'>): Lookup[] {
  const tagged =
    <R>(__typename: NodeTypeName, read: (caller: Caller, id: string) => Promise<R>, map: (record: R) => Node): Lookup =>
    async (caller, id) => {
      const record = await foundOrNull(read(caller, id));
      return record === null ? null : { ...map(record), __typename };
    };
  return [
    tagged(
      'Call',
      (c, id) => s.calls.get(c, id),
      (view) => view,
    ),
    tagged(
      'Campaign',
      (c, id) => s.campaigns.get(c, id),
      (view) => view,
    ),
    tagged(
      'Contact',
      (c, id) => s.contacts.get(c, id),
      (view) => view,
    ),
    tagged(
      'AiAgent',
      (c, id) => s.agents.get(c, id),
      (view) => view,
    ),
    tagged(
      'WebhookFlow',
      (c, id) => s.webhooks.get(c, id),
      (view) => view,
    ),
  ];
}

@Resolver()
export class NodeResolver {
  private readonly lookups: Lookup[];

  constructor(services: Pick<Services, 'calls' | 'campaigns' | 'contacts' | 'agents' | 'webhooks'>) {
    this.lookups = lookups(services);
  }

  /** A global id is a UUID of one type only, so at most one lookup finds it; they run together. */
  @Query(() => Node, { nullable: true, description: 'Refetches any node by its global id; null when there is none you may see.' })
  async node(@Arg('id', () => ID, { description: 'A global id, as `id` of any Node.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<TaggedNode<Node> | null> {
    const found = await Promise.all(this.lookups.map((lookup) => lookup(caller, id)));
    return found.find((node) => node !== null) ?? null;
  }
}
