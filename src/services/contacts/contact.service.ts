import { Campaign, Contact } from '../../entities';
import { type CsvColumns, type CsvDelimiter, type CsvRowError, type CsvSource, readContactCsv } from './contact-csv';
import { contactsByIds, contactsCount, contactsPage, foldContactCounts, liveContactsPage, numbersInCompany, refreshContactStatistics, updateByNumber } from './contact.store';
import type { StoredView, ViewReads } from '../../db/statements';
import { type FieldError, ValidationError } from '../shared/errors';
import { createUnderKey } from '../platform/idempotency.service';
import { alone } from '../../db/statements';
import {
  type ContactCreateInput,
  type ContactCsvImportInput,
  type ContactUpdateInput,
  contactWrites,
  type ContactWrite,
  createContactInput,
  importContactsCsvInput,
  importContactsInput,
  type PageContactsInput,
  pageContactsInput,
  updateContactInput,
} from './contact.input';
import { decodeCursor, encodeCursor, type Page } from '../shared/pagination';
import type { PhoneParser } from '../shared/phone';
import { findOwned, parseId } from '../shared/records';
import { contactContract, type ContactView, toContactView } from './contact.contract';
import { viewOfStored } from '../shared/contract';
import type { Caller } from '../shared/scope';
import type { Clock } from '../shared/clock';
import { checkInput, parseInput } from '../shared/validation';

/** Rows written per INSERT statement of a CSV import (19 columns: well under PostgreSQL's 65,535 parameters). */
const INSERT_BATCH = 1000;

/** Contacts read per statement of the legacy listing. */
const LIST_PAGE = 1000;

/** Data rows a dry run's preview shows, as they would be stored. */
export const CSV_PREVIEW_ROWS = 20;

/** What a good row of a CSV import does: create a contact, update the contact having its number, or nothing (a duplicate). */
export const CSV_ROW_ACTIONS = ['create', 'update', 'duplicate'] as const;
export type CsvRowAction = (typeof CSV_ROW_ACTIONS)[number];

/** The fields a row writes, as a contact stores them; null: the row leaves the field empty (a new contact) or as it is (an update). */
export interface CsvContactFields {
  phoneNumber: string;
  numberCountryCode: string;
  firstname: string | null;
  lastname: string | null;
  tagName: string | null;
  categoryName: string | null;
  sourceName: string | null;
  notes: string | null;
  metadata: Record<string, unknown> | null;
  campaignId: string | null;
}

/** What a dry run shows besides the counts: how the file was read, its first good rows as they would be stored, and every problem of its rows. */
export interface CsvPreview {
  /** The delimiter detected: `,`, `;` or a tab. */
  delimiter: CsvDelimiter;
  /** The encoding the file was read in: always `utf-8` (a file that is not UTF-8 is refused). */
  encoding: 'utf-8';
  /** The header row's names, trimmed. */
  header: string[];
  /** The first CSV_PREVIEW_ROWS good rows, by spreadsheet line. */
  sample: { line: number; action: CsvRowAction; contact: CsvContactFields }[];
  /** Data rows with at least one problem. */
  invalidRows: number;
  /** The first problems (MAX_LISTED_ERRORS): the mapping's against the header (line null), then each bad row's. */
  errors: CsvRowError[];
  /** Problems in all. */
  errorCount: number;
}

/** What a CSV import did, or would do in a dry run: the preview a console shows before importing. */
export interface CsvImportResult {
  /** Data rows read (blank lines aside). */
  rows: number;
  /** Contacts created; in a dry run, those the good rows would create. */
  imported: number;
  /** Contacts of the company updated from a row with their number (`on_duplicate=update`), counted by number. */
  updated: number;
  /** Rows whose number a contact of the company already had, or an earlier row of the file. */
  duplicates: number;
  /** The columns read: each mapping key used -> its header, and the metadata headers. */
  columns: CsvColumns;
  dryRun: boolean;
  /** A dry run's preview; null for an import. */
  preview: CsvPreview | null;
}

/** A good row's fields as the contact would store them (the preview's sample). */
const storedFields = ({
  phoneNumber,
  firstname,
  lastname,
  tagName,
  categoryName,
  sourceName,
  notes,
  metadata,
  campaignId,
}: ContactWrite & { phoneNumber: { e164: string; countryCode: string } }): CsvContactFields => ({
  phoneNumber: phoneNumber.e164,
  numberCountryCode: phoneNumber.countryCode,
  firstname: firstname ?? null,
  lastname: lastname ?? null,
  tagName: tagName ?? null,
  categoryName: categoryName ?? null,
  sourceName: sourceName ?? null,
  notes: notes ?? null,
  metadata: metadata ?? null,
  campaignId: campaignId ?? null,
});

/** Contacts of a company: the people campaigns call. */
export class ContactService {
  /** Input schemas built with this service's phone parser: those it validates, and REST's documented bodies. */
  private readonly writes;
  readonly createInput;
  readonly importInput;
  readonly updateInput;

  constructor(
    private readonly phones: PhoneParser,
    private readonly reads: ViewReads,
    private readonly clock: Clock,
  ) {
    this.writes = contactWrites(phones);
    this.createInput = createContactInput(phones);
    this.importInput = importContactsInput(phones);
    this.updateInput = updateContactInput(phones);
  }

  /**
   * Every contact of the company, newest first (the documented list: no pagination), as
   * keyset pages of `LIST_PAGE` stored views, read one at a time as the consumer asks for the
   * next: memory holds one page whatever the count, and each page starts at the index entry
   * after the last row of the one before. Each page is read at its own moment, not under one
   * snapshot: a contact created during the listing is newer than the first page and is not
   * listed; one deleted or changed meanwhile is listed as its page found it.
   */
  async *listPages({ scope }: Caller): AsyncGenerator<StoredView<ContactView>[]> {
    let last: StoredView<ContactView> | undefined;
    do {
      const page = await liveContactsPage(this.reads, scope.companyId, LIST_PAGE, last);
      yield page;
      last = page.length === LIST_PAGE ? page.at(-1) : undefined;
    } while (last !== undefined);
  }

  /**
   * Newest first, a page at a time, optionally filtered by status, campaign, tag and a search
   * (`pageContactsInput`): one statement on the reads' pool, each row's view made from its
   * columns (`contactsPage`).
   */
  async page(caller: Caller, input: PageContactsInput): Promise<Page<ContactView>> {
    const { items, nextCursor } = await this.pageStored(caller, input);
    return { items: items.map((row) => viewOfStored(contactContract.view, row)), nextCursor };
  }

  /** The page `page` answers as stored views (instants as the ISO text read): what REST writes, with no Date made for an instant. */
  async pageStored({ scope }: Caller, input: PageContactsInput): Promise<Page<StoredView<ContactView>>> {
    const { limit, cursor, ...filters } = parseInput(pageContactsInput, input);
    const rows = await contactsPage(this.reads, this.phones, scope.companyId, filters, cursor ? decodeCursor(cursor) : undefined, limit + 1);
    const items = rows.slice(0, limit);
    return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]) : null };
  }

  /** How many contacts `page` would page through with the same filters. */
  async count({ scope }: Caller, input: PageContactsInput): Promise<number> {
    return contactsCount(this.reads, this.phones, scope.companyId, parseInput(pageContactsInput, input));
  }

  /**
   * Folds the pending deltas of every company's kept count of live contacts into its base row
   * (`foldContactCounts`), unless another replica is folding: the periodic sweep that keeps
   * the deltas a count reads few.
   */
  async sweep(em: Caller['em']): Promise<void> {
    await em.transactional((tx) => foldContactCounts(tx));
  }

  /** The company's contacts of `ids`, deleted ones too, made from their rows (`contactsByIds`). */
  async getMany({ scope }: Caller, ids: readonly string[]): Promise<ContactView[]> {
    return (await contactsByIds(this.reads, scope.companyId, ids)).map((row) => viewOfStored(contactContract.view, row));
  }

  async get(caller: Caller, id: string): Promise<ContactView> {
    return toContactView(await this.find(caller, id));
  }

  /**
   * Creates one contact, or imports an array all-or-nothing: any bad row rejects the whole
   * import, with every bad row's fields named by index (`[3].phoneNumber`).
   */
  async create(caller: Caller, input: ContactCreateInput | ContactCreateInput[]): Promise<ContactView | ContactView[]> {
    const bulk = Array.isArray(input);
    const rows = bulk ? parseInput(this.writes.import, input) : [parseInput(this.writes.create, input)];
    await this.checkCampaigns(caller, rows, bulk);
    const contacts = rows.map((row) => caller.em.create<Contact>(Contact, { company: caller.scope.companyId, ...this.toEntity(row) } as never));
    await createUnderKey(
      caller,
      alone,
      () => caller.em.flush(),
      () => contacts.map((c) => c.id),
    );
    if (bulk) await refreshContactStatistics(caller.em, rows.length);
    return bulk ? contacts.map(toContactView) : toContactView(contacts[0]);
  }

  /**
   * Imports a CSV file (docs/rest.md, "Importing contacts from CSV"): `input` names the
   * columns (`mapping`; none: the header names them), an optional campaign to attach every
   * contact to, what a number the company already has does (`onDuplicate`: skip, the
   * default, or update that contact), and `dryRun` (check everything, write nothing, answer
   * the same counts). All or nothing, each row under the rules of `create`; the contacts
   * are written in one transaction, in multi-row inserts.
   */
  async importCsv(caller: Caller, input: ContactCsvImportInput, csv: CsvSource): Promise<CsvImportResult> {
    const { mapping, campaignId, dryRun, onDuplicate } = parseInput(importContactsCsvInput, input);
    await this.checkCampaigns(caller, [{ campaignId }], false);
    const read = await readContactCsv(csv, mapping, (row) => checkInput(this.writes.create, row), { preview: dryRun === true });
    const company = caller.scope.companyId;
    const fields = read.rows.map(({ line, data }) => ({ line, row: { ...data, campaignId } }));
    // One row per number: the first when duplicates are skipped, the last when they update.
    const byNumber = new Map<string, (typeof fields)[number]>();
    for (const entry of fields) if (onDuplicate === 'update' || !byNumber.has(entry.row.phoneNumber.e164)) byNumber.set(entry.row.phoneNumber.e164, entry);
    const known = await numbersInCompany(caller.em, company, [...byNumber.keys()]);
    const created = [...byNumber.values()].filter(({ row }) => !known.has(row.phoneNumber.e164)).map(({ row }) => row);
    const updated = onDuplicate === 'update' ? [...byNumber.values()].filter(({ row }) => known.has(row.phoneNumber.e164)).map(({ row }) => row) : [];
    if (!dryRun) {
      await caller.em.transactional(async (em) => {
        for (let start = 0; start < created.length; start += INSERT_BATCH) {
          const batch = created.slice(start, start + INSERT_BATCH);
          await em.insertMany(batch.map((row) => em.create<Contact>(Contact, { company, ...this.toEntity(row) } as never, { persist: false })));
        }
        await updateByNumber(
          em,
          company,
          updated.map(({ phoneNumber, ...row }) => ({ ...row, phoneNumber: phoneNumber.e164 })),
          this.clock.now(),
        );
      });
      await refreshContactStatistics(caller.em, created.length);
    }
    const action = (entry: (typeof fields)[number]): CsvRowAction =>
      byNumber.get(entry.row.phoneNumber.e164) !== entry ? 'duplicate' : !known.has(entry.row.phoneNumber.e164) ? 'create' : onDuplicate === 'update' ? 'update' : 'duplicate';
    const preview: CsvPreview | null = dryRun
      ? {
          delimiter: read.delimiter,
          encoding: 'utf-8',
          header: read.header,
          sample: fields.slice(0, CSV_PREVIEW_ROWS).map((entry) => ({ line: entry.line, action: action(entry), contact: storedFields(entry.row) })),
          invalidRows: read.invalid,
          errors: read.errors,
          errorCount: read.errorCount,
        }
      : null;
    return { rows: read.count, imported: created.length, updated: updated.length, duplicates: fields.length - created.length, columns: read.columns, dryRun: dryRun ?? false, preview };
  }

  /** Partial update. */
  async update(caller: Caller, id: string, input: ContactUpdateInput): Promise<ContactView> {
    const contact = await this.find(caller, id);
    const fields = parseInput(this.writes.update, input);
    await this.checkCampaigns(caller, [fields], false);
    caller.em.assign(contact, this.toEntity(fields));
    await caller.em.flush();
    return toContactView(contact);
  }

  async delete(caller: Caller, id: string): Promise<void> {
    const contact = await this.find(caller, id);
    contact.deletedAt = this.clock.now();
    await caller.em.flush();
  }

  private async find({ scope, em }: Caller, id: unknown): Promise<Contact> {
    return findOwned(em, Contact, 'Contact', { id: parseId(id), company: scope.companyId, deletedAt: null });
  }

  private toEntity({ phoneNumber, campaignId, ...rest }: ContactWrite): Record<string, unknown> {
    return {
      ...rest,
      ...(phoneNumber ? { phoneNumber: phoneNumber.e164, numberCountryCode: phoneNumber.countryCode } : {}),
      ...(campaignId !== undefined ? { campaign: campaignId } : {}),
    };
  }

  /** Every campaignId named must be a campaign of the caller's company. */
  private async checkCampaigns({ scope, em }: Caller, rows: Pick<ContactWrite, 'campaignId'>[], indexed: boolean): Promise<void> {
    const wanted = [...new Set(rows.map((r) => r.campaignId).filter((id): id is string => !!id))];
    if (wanted.length === 0) return;
    const found = await em.find(Campaign, { id: wanted, company: scope.companyId, deletedAt: null }, { fields: ['id'] });
    const known = new Set(found.map((c) => c.id));
    const errors: FieldError[] = rows.flatMap((row, i) =>
      row.campaignId && !known.has(row.campaignId) ? [{ field: indexed ? `[${i}].campaignId` : 'campaignId', message: 'Campaign not found' }] : [],
    );
    if (errors.length > 0) throw new ValidationError(errors);
  }
}
