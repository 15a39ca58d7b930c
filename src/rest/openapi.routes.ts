import Router from '@koa/router';
import { z } from 'zod';
import type { RestState } from './middleware';
import type { RestApi } from './openapi';
import { openApiDocument } from './openapi-document';

/**
 * GET /openapi.json: the document of every operation declared on `api` before this one, and
 * of this one: mount it after every other route. Built once, at its first request rather than
 * at start (converting every operation's zod schemas is most of a service's start-up CPU, and
 * most services never serve it: docs/testing.md, "How long it takes"). The answer is the
 * document itself, not the envelope, as OpenAPI tools expect.
 */
export function openApiRoutes(api: RestApi, publicBaseUrl: string): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'openApiDocument',
      method: 'get',
      path: '/openapi.json',
      tag: 'Operations',
      summary: 'This OpenAPI 3.1 document (not enveloped)',
      description: 'The OpenAPI 3.1 description of every operation, generated from the validation schemas; served without credentials.',
      auth: 'none',
      unwrapped: true,
      data: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
    },
    (ctx) => {
      ctx.body = document ??= openApiDocument(operations, publicBaseUrl);
    },
  );
  // Listed after the route above, so that it lists it too; operations declared later are not.
  const operations = [...api.operations];
  let document: ReturnType<typeof openApiDocument> | undefined;
  return router;
}
