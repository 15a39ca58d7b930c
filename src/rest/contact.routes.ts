import Router from '@koa/router';
import { z } from 'zod';
import type { ContactService } from '../services/contact.service';
import { contactShape, serializeContact } from './contact.serializer';
import { ok } from './envelope';
import type { RestState } from './middleware';
import { notFound, type RestApi } from './openapi';

const tag = 'Contacts';

export function contactRoutes(api: RestApi, contacts: ContactService): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'listContacts',
      method: 'get',
      path: '/compaign/v1/contact',
      tag,
      summary: 'List every contact, newest first (interface 4.3)',
      description: 'No pagination, as documented. Every failure but credentials answers HTTP 200 `error`.',
      policy: 'legacy-200',
      data: z.array(contactShape),
    },
    async (ctx) => {
      ok(ctx, (await contacts.list(ctx.state.caller)).map(serializeContact));
    },
  );
  api.route(
    router,
    {
      id: 'createContacts',
      method: 'post',
      path: '/v1/contacts',
      tag,
      idempotent: true,
      summary: 'Create a contact, or import 1 to 10,000 at once',
      description: 'An array is imported all-or-nothing; each bad row is named by index (`[3].phone_number`).',
      body: z.xor([contacts.createInput.meta({ title: 'One contact' }), contacts.importInput.meta({ title: 'An import' })]),
      data: z.xor([
        contactShape.meta({ title: 'One contact', description: 'The answer to one contact sent as an object.' }),
        z.array(contactShape).meta({ title: 'An import', description: 'The answer to an array: the created contacts, in the order sent.' }),
      ]),
    },
    async (ctx) => {
      const created = await contacts.create(ctx.state.caller, ctx.request.body);
      ok(ctx, Array.isArray(created) ? created.map(serializeContact) : serializeContact(created));
    },
  );
  api.route(router, { id: 'getContact', method: 'get', path: '/v1/contacts/:id', tag, summary: 'Get a contact', description: 'One contact of the company, with the outcome of its latest call.', data: contactShape, errors: { 404: notFound('contact') } }, async (ctx) => {
    ok(ctx, serializeContact(await contacts.get(ctx.state.caller, ctx.params.id)));
  });
  api.route(
    router,
    { id: 'updateContact', method: 'patch', path: '/v1/contacts/:id', tag, summary: 'Update a contact', description: 'Partial update: fields left out stay as they were; `phone_number` is normalised to E.164.', body: contacts.updateInput, data: contactShape, errors: { 404: notFound('contact') } },
    async (ctx) => {
      ok(ctx, serializeContact(await contacts.update(ctx.state.caller, ctx.params.id, ctx.request.body)));
    },
  );
  api.route(
    router,
    { id: 'deleteContact', method: 'delete', path: '/v1/contacts/:id', tag, summary: 'Delete a contact (soft)', description: 'Soft-deletes the contact: gone from reads and lists.', data: z.literal('Contact deleted'), errors: { 404: notFound('contact') } },
    async (ctx) => {
      await contacts.delete(ctx.state.caller, ctx.params.id);
      ok(ctx, 'Contact deleted');
    },
  );
  return router;
}
