import { type ClassType, Field, Int, ObjectType } from 'type-graphql';
import { encodeCursor, type Page } from '../services/shared/pagination';

@ObjectType('PageInfo', {
  simpleResolvers: true,
  description: 'Relay page information (cursor connections spec): pass `endCursor` as `after` for the next page.',
})
export class PageInfo {
  @Field({ description: 'True when more nodes follow this page.' })
  hasNextPage!: boolean;

  @Field({ description: 'True when nodes come before this page: `after` was given (pagination is forward only).' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Cursor of the first node of the page; null when the page is empty.' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'Cursor of the last node of the page; null when the page is empty.' })
  endCursor!: string | null;
}

/** What a connection is built from: a page of records, its node mapper and a lazy total. */
export interface ConnectionSource<R extends { id: string; createdAt: Date }, N> {
  page: Page<R>;
  node: (record: R) => N;
  /** Runs only when the client asks for `totalCount`. */
  count: () => Promise<number>;
  /** The `after` argument the page was read with. */
  after: string | null | undefined;
}

export interface Connection<N> {
  edges: { cursor: string; node: N }[];
  pageInfo: PageInfo;
  count: () => Promise<number>;
}

/**
 * A Relay connection type over `Node` (`CallConnection`, `CallEdge`). Its `totalCount` is
 * a method, so the count query runs only when selected. Object types declare
 * `simpleResolvers`: their plain fields are read by graphql-js's default resolver, not
 * through a TypeGraphQL wrapper per field (a page of 100 campaigns has 3,400 fields).
 */
export function ConnectionType<N extends object>(name: string, Node: ClassType<N>) {
  @ObjectType(`${name}Edge`, { simpleResolvers: true, description: `One ${name} of a page, with its cursor.` })
  class Edge {
    @Field({ description: 'Opaque position of this node: pass it as `after`.' })
    cursor!: string;

    @Field(() => Node, { description: `The ${name}.` })
    node!: N;
  }

  @ObjectType(`${name}Connection`, { simpleResolvers: true, description: `A page of ${name} nodes (Relay cursor connection).` })
  class ConnectionOf implements Connection<N> {
    @Field(() => [Edge], { description: 'The nodes of this page, each with its cursor.' })
    edges!: Edge[];

    @Field(() => PageInfo, { description: 'Where this page is: cursors of its ends, and whether more pages exist.' })
    pageInfo!: PageInfo;

    count!: () => Promise<number>;

    // Its cost is the connection's (perNode, src/graphql/limits.ts): once, not once per node.
    @Field(() => Int, { complexity: 0, description: 'Every node matching the filters, across all pages.' })
    totalCount(): Promise<number> {
      return this.count();
    }
  }
  return ConnectionOf;
}

/** Builds the connection object a connection type resolves from. */
export function connectionOf<R extends { id: string; createdAt: Date }, N>({ page, node, count, after }: ConnectionSource<R, N>): Connection<N> {
  // Cursors are encoded only for the edges whose `cursor` is selected.
  const edges = page.items.map((record) => ({
    node: node(record),
    get cursor() {
      return encodeCursor(record);
    },
  }));
  const first = page.items.at(0);
  const last = page.items.at(-1);
  return {
    edges,
    pageInfo: {
      hasNextPage: page.nextCursor !== null,
      hasPreviousPage: Boolean(after),
      startCursor: first ? encodeCursor(first) : null,
      endCursor: last ? encodeCursor(last) : null,
    },
    count,
  };
}
