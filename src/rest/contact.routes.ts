import Router from '@koa/router';
import { z } from 'zod';
import type { ContactService } from '../services/contacts/contact.service';
import { contactJson, contactPageShape, contactShape, csvImportShape, serializeContact, serializeCsvImport } from './contact.serializer';
import { pageContactsQuery } from '../services/contacts/contact.input';
import { csvImportBodies, csvImportQuery, readCsvUpload } from './csv-upload';
import { ok, okArrayStream, okPage } from './envelope';
import type { RestState } from './middleware';
import { notFound, type RestApi } from './openapi';
import { serviceInput } from './rest-names';

const tag = 'Contacts';

/** The pages of `pages`: `first`, already read, then the rest. */
async function* resumed<T>(first: IteratorResult<T>, pages: AsyncIterator<T>): AsyncGenerator<T> {
  for (let next = first; !next.done; next = await pages.next()) yield next.value;
}

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
      const pages = contacts.listPages(ctx.state.caller);
      // The first page is read before answering, so that its failure still answers the legacy 200 `error`.
      const first = await pages.next();
      // Each contact's JSON written straight from its stored view: the bytes `serializeContact` gives.
      okArrayStream(ctx, resumed(first, pages), contactJson);
    },
  );
  api.route(
    router,
    {
      id: 'pageContacts',
      method: 'get',
      path: '/v1/contacts',
      tag,
      summary: 'List contacts, newest first, a page at a time',
      description:
        'Contacts of the company, newest first, filtered by status, campaign, tag and a search by name or number (docs/rest.md, "Listing contacts"); `data` is `{items, next_cursor}`: pass `next_cursor` as `cursor` for the next page (null on the last).',
      query: pageContactsQuery,
      data: contactPageShape,
    },
    async (ctx) => {
      okPage(ctx, await contacts.pageStored(ctx.state.caller, serviceInput(ctx, 'query')), contactJson);
    },
  );
  api.route(
    router,
    {
      id: 'createContacts',
      method: 'post',
      path: '/v1/contacts',
      tag,
      idempotent: async (ctx, ids) => {
        const byId = new Map((await contacts.getMany(ctx.state.caller, ids)).map((c) => [c.id, serializeContact(c)]));
        const created = ids.map((id) => byId.get(id));
        ok(ctx, Array.isArray(ctx.request.body) ? created : created[0]);
      },
      summary: 'Create a contact, or import 1 to 10,000 at once',
      description: 'An array is imported all-or-nothing; each bad row is named by index (`[3].phone_number`).',
      body: z.xor([contacts.createInput.meta({ title: 'One contact' }), contacts.importInput.meta({ title: 'An import' })]),
      data: z.xor([
        contactShape.meta({ title: 'One contact', description: 'The answer to one contact sent as an object.' }),
        z.array(contactShape).meta({ title: 'An import', description: 'The answer to an array: the created contacts, in the order sent.' }),
      ]),
    },
    async (ctx) => {
      const created = await contacts.create(ctx.state.caller, serviceInput(ctx, 'body'));
      ok(ctx, Array.isArray(created) ? created.map(serializeContact) : serializeContact(created));
    },
  );
  api.route(
    router,
    {
      id: 'importContactsCsv',
      method: 'post',
      path: '/v1/contacts/import',
      tag,
      summary: 'Import up to 100,000 contacts from a CSV file',
      description:
        'A `text/csv` body with the mapping in the query string (`phone_number=Phone&first_name=First&metadata=Plan,City`), or `multipart/form-data` with a `mapping` part (JSON) then a `file` part. ' +
        'All or nothing: a bad row fails the whole file, each bad row and field named by its spreadsheet line (`[14].phone_number`; the header is line 1), the first 100 listed; ' +
        'file and mapping problems name `file` or `mapping.<key>`. `dry_run=true` checks everything and writes nothing, answering 200 with a `preview`: the delimiter, the header, ' +
        "the first 20 good rows as they would be stored, and every bad row's problems by line (only an unreadable file or a bad option answers 400). At most 64 MiB. See docs/rest.md.",
      query: csvImportQuery,
      bodies: csvImportBodies,
      data: csvImportShape,
    },
    async (ctx) => {
      try {
        const { options, file } = await readCsvUpload(ctx);
        ok(ctx, serializeCsvImport(await contacts.importCsv(ctx.state.caller, options, file)));
      } finally {
        // An import refused before the end of the file leaves the rest unread: the connection cannot be reused.
        if (!ctx.req.complete) ctx.set('Connection', 'close');
      }
    },
  );
  api.route(
    router,
    {
      id: 'getContact',
      method: 'get',
      path: '/v1/contacts/:id',
      tag,
      summary: 'Get a contact',
      description: 'One contact of the company, with the outcome of its latest call.',
      data: contactShape,
      errors: { 404: notFound('contact') },
    },
    async (ctx) => {
      ok(ctx, serializeContact(await contacts.get(ctx.state.caller, ctx.params.id)));
    },
  );
  api.route(
    router,
    {
      id: 'updateContact',
      method: 'patch',
      path: '/v1/contacts/:id',
      tag,
      summary: 'Update a contact',
      description: 'Partial update: fields left out stay as they were; `phone_number` is normalised to E.164.',
      body: contacts.updateInput,
      data: contactShape,
      errors: { 404: notFound('contact') },
    },
    async (ctx) => {
      ok(ctx, serializeContact(await contacts.update(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'deleteContact',
      method: 'delete',
      path: '/v1/contacts/:id',
      tag,
      summary: 'Delete a contact (soft)',
      description: 'Soft-deletes the contact: gone from reads and lists.',
      data: z.literal('Contact deleted'),
      errors: { 404: notFound('contact') },
    },
    async (ctx) => {
      await contacts.delete(ctx.state.caller, ctx.params.id);
      ok(ctx, 'Contact deleted');
    },
  );
  return router;
}
