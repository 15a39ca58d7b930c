import Router from '@koa/router';
import { z } from 'zod';
import type { PhoneNumberService } from '../services/phone-numbers/phone-number.service';
import { ok } from './envelope';
import type { RestState } from './middleware';
import { notFound, type RestApi } from './openapi';
import { serviceInput } from './rest-names';
import { updatePhoneNumberInput } from '../services/phone-numbers/phone-number.input';
import { phoneNumberShape, serializePhoneNumber } from './phone-number.serializer';

const tag = 'Phone numbers';

export function phoneNumberRoutes(api: RestApi, numbers: PhoneNumberService): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'listPhoneNumbers',
      method: 'get',
      path: '/v1/phone-numbers',
      tag,
      summary: 'List the numbers the company calls from',
      description: 'The numbers the company owns: the only allowed `call_from` of make-call.',
      data: z.array(phoneNumberShape),
    },
    async (ctx) => {
      ok(ctx, (await numbers.list(ctx.state.caller)).map(serializePhoneNumber));
    },
  );
  api.route(
    router,
    {
      id: 'addPhoneNumber',
      method: 'post',
      path: '/v1/phone-numbers',
      tag,
      summary: 'Add a number the company calls from',
      description:
        'Adds a number in any accepted format, stored in E.164. A number belongs to one company at a time: 409 when the company already has it or another company holds it. With the Twilio provider, the platform account must hold the number (400 on `phone_number` otherwise).',
      body: numbers.createInput,
      data: phoneNumberShape,
      errors: { 409: 'The company already has this number (`Phone number already added`), or another company holds it (`Phone number is in use`).' },
    },
    async (ctx) => {
      ok(ctx, serializePhoneNumber(await numbers.create(ctx.state.caller, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'updatePhoneNumber',
      method: 'patch',
      path: '/v1/phone-numbers/:id',
      tag,
      summary: 'Relabel a number, or name the agent that answers calls to it',
      description: 'Partial: fields left out stay. Inbound calls: docs/calls.md.',
      body: updatePhoneNumberInput,
      data: phoneNumberShape,
      errors: { 404: `${notFound('phone number')} Also when \`inbound_agent_id\` names no agent of your company.` },
    },
    async (ctx) => {
      ok(ctx, serializePhoneNumber(await numbers.update(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'deletePhoneNumber',
      method: 'delete',
      path: '/v1/phone-numbers/:id',
      tag,
      summary: 'Remove a number',
      description: 'Removes a number: it can no longer be called from.',
      data: z.literal('Phone number deleted'),
      errors: { 404: notFound('phone number') },
    },
    async (ctx) => {
      await numbers.delete(ctx.state.caller, ctx.params.id);
      ok(ctx, 'Phone number deleted');
    },
  );
  return router;
}
