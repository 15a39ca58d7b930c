import Router from '@koa/router';
import { z } from 'zod';
import type { DoNotCallService } from '../services/do-not-call/do-not-call.service';
import { listDoNotCallInput } from '../services/do-not-call/do-not-call.input';
import { doNotCallPageShape, doNotCallShape, serializeDoNotCallNumber } from './do-not-call.serializer';
import { ok } from './envelope';
import type { RestState } from './middleware';
import type { RestApi } from './openapi';
import { serviceInput } from './rest-names';

const tag = 'Do-not-call';

export function doNotCallRoutes(api: RestApi, doNotCall: DoNotCallService): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'addDoNotCallNumbers',
      method: 'post',
      path: '/v1/do-not-call',
      tag,
      summary: 'Add numbers to the company’s do-not-call list (idempotent)',
      description: 'Lists up to 10,000 numbers in any format, stored in E.164; a number already listed keeps its entry. Errors name numbers by index.',
      body: doNotCall.addInput,
      data: z.array(doNotCallShape),
    },
    async (ctx) => {
      ok(ctx, (await doNotCall.add(ctx.state.caller, serviceInput(ctx, 'body'))).map(serializeDoNotCallNumber));
    },
  );
  api.route(
    router,
    {
      id: 'listDoNotCallNumbers',
      method: 'get',
      path: '/v1/do-not-call',
      tag,
      summary: 'The do-not-call list, newest first, a page at a time',
      description: "The company's do-not-call list, newest first; `data` is `{items, next_cursor}` as for calls.",
      query: listDoNotCallInput,
      data: doNotCallPageShape,
    },
    async (ctx) => {
      const page = await doNotCall.list(ctx.state.caller, serviceInput(ctx, 'query'));
      ok(ctx, { items: page.items.map(serializeDoNotCallNumber), next_cursor: page.nextCursor });
    },
  );
  // The router has already percent-decoded the number: %2B14155550123 arrives as +14155550123.
  api.route(
    router,
    {
      id: 'removeDoNotCallNumber',
      method: 'delete',
      path: '/v1/do-not-call/:number',
      tag,
      summary: 'Take a number off the list',
      description: 'Takes a number, in any format, off the list; 404 when it is not listed.',
      params: z.object({ number: z.string().describe('The number in any accepted format, percent-encoded (%2B for +)') }),
      data: z.literal('Number removed'),
      errors: { 404: 'The number is not on the list.' },
    },
    async (ctx) => {
      await doNotCall.remove(ctx.state.caller, ctx.params.number);
      ok(ctx, 'Number removed');
    },
  );
  return router;
}
