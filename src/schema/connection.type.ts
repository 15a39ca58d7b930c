import { type ClassType, Field, Int, ObjectType } from 'type-graphql';
import { encodeCursor, type Page } from '../services/pagination';

@ObjectType('PageInfo', { simpleResolvers: true, description: 'Relay page information: pass `endCursor` as `after` for the next page.' })
export class PageInfo {
  @Field()
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true })
  endCursor!: string | null;
}

/** What a connection is built from: a page of records, its node mapper and a lazy total. */
export interface ConnectionSource<R extends { id: string; createdAt: Date }, N> {
  page: Page<R>;
  node: (record: R) => N;
  /** Runs only when the client asks for `totalCount`. */
  count: () => Promise<number>;
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
  @ObjectType(`${name}Edge`, { simpleResolvers: true })
  class Edge {
    @Field({ description: 'Opaque position of this node: pass it as `after`.' })
    cursor!: string;

    @Field(() => Node)
    node!: N;
  }

  @ObjectType(`${name}Connection`, { simpleResolvers: true })
  class ConnectionOf implements Connection<N> {
    @Field(() => [Edge])
    edges!: Edge[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;

    count!: () => Promise<number>;

    @Field(() => Int, { description: 'Every node matching the filters, across all pages.' })
    totalCount(): Promise<number> {
      return this.count();
    }
  }
  return ConnectionOf;
}

/** Builds the connection object a connection type resolves from. */
export function connectionOf<R extends { id: string; createdAt: Date }, N>({ page, node, count }: ConnectionSource<R, N>): Connection<N> {
  // Cursors are encoded only for the edges whose `cursor` is selected.
  const edges = page.items.map((record) => ({
    node: node(record),
    get cursor() {
      return encodeCursor(record);
    },
  }));
  const last = page.items.at(-1);
  return {
    edges,
    pageInfo: { hasNextPage: page.nextCursor !== null, endCursor: last ? encodeCursor(last) : null },
    count,
  };
}
