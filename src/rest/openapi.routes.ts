import Router from '@koa/router';
import { z } from 'zod';
import type { RestState } from './middleware';
import type { RestApi } from './openapi';
import { openApiDocument } from './openapi-document';

/**
 * GET /openapi.json: the document of every operation declared on `api` before this one, and
 * of this one. Built once, here: mount it after every other route. The answer is the
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
      ctx.body = document;
    },
  );
  // Made after the route above, so that it lists it too; the handler reads it at request time.
  const document = openApiDocument(api.operations, publicBaseUrl);
  return router;
}
