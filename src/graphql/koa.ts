import { Readable } from 'node:stream';
import { type ApolloServer, HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { Context, Middleware, Next } from 'koa';
import { BodyError, GRAPHQL_BODY_LIMIT, readJsonBody } from '../http/json-body';
import type { ContextFactory, GraphQLContext } from './context';
import { GraphiQLPage, IDE_ASSETS_PATH } from './ide';
import { checkNesting } from './limits';

function headersOf(ctx: Context): HeaderMap {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

async function readBody(ctx: Context): Promise<unknown> {
  return ctx.method === 'POST' ? readJsonBody(ctx, GRAPHQL_BODY_LIMIT) : undefined;
}

/**
 * Koa adapter over Apollo's `executeHTTPGraphQLRequest` (the official Koa integration is
 * ESM-only). Serves `path` for GraphQL over HTTP, the GraphiQL page to browsers there, and
 * the IDE's files under /graphql/ide. The context is built per request from the
 * Authorization header.
 */
export function graphqlMiddleware(path: string, apollo: ApolloServer<GraphQLContext>, contexts: ContextFactory): Middleware {
  const ide = new GraphiQLPage(path);
  return async (ctx: Context, next: Next) => {
    // ctx.state.route names the route for metrics and the access log: this is outside @koa/router.
    if (ctx.path.startsWith(`${IDE_ASSETS_PATH}/`) && ide.serveAsset(ctx, ctx.path.slice(IDE_ASSETS_PATH.length + 1))) {
      ctx.state.route = `${IDE_ASSETS_PATH}/:file`;
      return;
    }
    if (ctx.path !== path) {
      await next();
      return;
    }
    ctx.state.route = path;
    if (ide.wants(ctx)) {
      ide.servePage(ctx);
      return;
    }
    let body: unknown;
    try {
      body = await readBody(ctx);
    } catch (err) {
      if (!(err instanceof BodyError)) throw err;
      ctx.status = err.status;
      ctx.body = { errors: [{ message: err.message, extensions: { code: 'BAD_REQUEST' } }] };
      return;
    }
    const document = ctx.method === 'POST' ? (body as { query?: unknown } | undefined)?.query : ctx.query.query;
    try {
      if (typeof document === 'string') checkNesting(document);
    } catch (err) {
      if (!(err instanceof GraphQLError)) throw err;
      ctx.status = 400;
      ctx.body = { errors: [{ message: err.message, extensions: { code: err.extensions.code } }] };
      return;
    }
    const result = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: ctx.method.toUpperCase(), headers: headersOf(ctx), search: ctx.querystring, body },
      context: () => contexts.forRequest(ctx.req, ctx.state.requestId as string),
    });
    for (const [name, value] of result.headers) ctx.set(name, value);
    ctx.status = result.status ?? 200;
    ctx.body = result.body.kind === 'complete' ? result.body.string : Readable.from(result.body.asyncIterator);
  };
}
