import { Campaign, Contact } from '../entities';
import { type CsvSource, readContactCsv } from './contact-csv';
import { type FieldError, ValidationError } from './errors';
import { type CreateContactInput, createContactInput, importContactsCsvInput, importContactsInput, pageContactsInput, updateContactInput } from './input/contact.input';
import { newestFirst, type Page } from './pagination';
import type { PhoneParser } from './phone';
import { camelKeys, findOwned, parseId } from './records';
import type { Caller, Scope } from './scope';
import { checkInput, parseInput } from './validation';

type ContactFields = Omit<CreateContactInput, 'phone_number'> & { phone_number?: CreateContactInput['phone_number'] };

/** Rows written per INSERT statement of a CSV import (19 columns: well under PostgreSQL's 65,535 parameters). */
const INSERT_BATCH = 1000;

/** What a CSV import did: how many contacts it wrote, or would have written in a dry run. */
export interface CsvImportResult {
  imported: number;
  dryRun: boolean;
}

/** Contacts of a company: the people campaigns call. */
export class ContactService {
  /** Input schemas built with this service's phone parser; /openapi.json describes them. */
  readonly createInput;
  readonly importInput;
  readonly updateInput;

  constructor(phones: PhoneParser) {
    this.createInput = createContactInput(phones);
    this.importInput = importContactsInput(phones);
    this.updateInput = updateContactInput(phones);
  }

  /** Every contact of the company, newest first (documented list: no pagination). */
  async list({ scope, em }: Caller): Promise<Contact[]> {
    return em.find(Contact, { company: scope.companyId, deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Newest first, a page at a time, optionally filtered by `status` and `campaign_id`. */
  async page({ scope, em }: Caller, input: unknown): Promise<Page<Contact>> {
    const { status, campaign_id, ...page } = parseInput(pageContactsInput, input);
    return newestFirst(em, Contact, this.filters(scope, status, campaign_id), page);
  }

  /** How many contacts `page` would page through with the same filters. */
  async count({ scope, em }: Caller, input: unknown): Promise<number> {
    const { status, campaign_id } = parseInput(pageContactsInput, input);
    return em.count(Contact, this.filters(scope, status, campaign_id));
  }

  /** Contacts of the company by id, soft-deleted ones included (a call keeps its contact). */
  async getMany({ scope, em }: Caller, ids: readonly string[]): Promise<Contact[]> {
    return em.find(Contact, { id: [...ids], company: scope.companyId });
  }

  async get({ scope, em }: Caller, id: unknown): Promise<Contact> {
    return findOwned(em, Contact, 'Contact', { id: parseId(id), company: scope.companyId, deletedAt: null });
  }

  /**
   * Creates one contact, or imports an array all-or-nothing: any bad row rejects the whole
   * import, with every bad row's fields named by index (`[3].phone_number`).
   */
  async create(caller: Caller, input: unknown): Promise<Contact | Contact[]> {
    const bulk = Array.isArray(input);
    const rows = bulk ? parseInput(this.importInput, input) : [parseInput(this.createInput, input)];
    await this.checkCampaigns(caller, rows, bulk);
    const contacts = rows.map((row) => caller.em.create(Contact, { company: caller.scope.companyId, ...this.toEntity(row) } as never) as Contact);
    await caller.em.flush();
    return bulk ? contacts : contacts[0]!;
  }

  /**
   * Imports a CSV file (docs/rest.md, "Importing contacts from CSV"): `input` names the
   * columns (`mapping`), an optional campaign to attach every contact to, and `dry_run`
   * (check everything, write nothing). All or nothing, each row under the rules of
   * `create`; the contacts are written in one transaction, in multi-row inserts.
   */
  async importCsv(caller: Caller, input: unknown, csv: CsvSource): Promise<CsvImportResult> {
    const { mapping, campaign_id, dry_run } = parseInput(importContactsCsvInput, input);
    await this.checkCampaigns(caller, [{ campaign_id }], false);
    const rows = await readContactCsv(csv, mapping, (row) => checkInput(this.createInput, row));
    if (!dry_run) {
      const company = caller.scope.companyId;
      await caller.em.transactional(async (em) => {
        for (let start = 0; start < rows.length; start += INSERT_BATCH) {
          const batch = rows.slice(start, start + INSERT_BATCH);
          await em.insertMany(batch.map((row) => em.create(Contact, { company, ...this.toEntity({ ...row, campaign_id }) } as never, { persist: false }) as Contact));
        }
      });
    }
    return { imported: rows.length, dryRun: dry_run ?? false };
  }

  async update(caller: Caller, id: unknown, input: unknown): Promise<Contact> {
    const contact = await this.get(caller, id);
    const fields = parseInput(this.updateInput, input);
    await this.checkCampaigns(caller, [fields], false);
    caller.em.assign(contact, this.toEntity(fields));
    await caller.em.flush();
    return contact;
  }

  async delete(caller: Caller, id: unknown): Promise<void> {
    const contact = await this.get(caller, id);
    contact.deletedAt = new Date();
    await caller.em.flush();
  }

  private filters(scope: Scope, status: string | undefined, campaignId: string | undefined) {
    return { company: scope.companyId, deletedAt: null, ...(status ? { status } : {}), ...(campaignId ? { campaign: campaignId } : {}) };
  }

  private toEntity({ phone_number, campaign_id, ...rest }: ContactFields): Record<string, unknown> {
    return {
      ...camelKeys(rest),
      ...(phone_number ? { phoneNumber: phone_number.e164, numberCountryCode: phone_number.countryCode } : {}),
      ...(campaign_id !== undefined ? { campaign: campaign_id } : {}),
    };
  }

  /** Every campaign_id named must be a campaign of the caller's company. */
  private async checkCampaigns({ scope, em }: Caller, rows: ContactFields[], indexed: boolean): Promise<void> {
    const wanted = [...new Set(rows.map((r) => r.campaign_id).filter((id): id is string => !!id))];
    if (wanted.length === 0) return;
    const found = await em.find(Campaign, { id: wanted, company: scope.companyId, deletedAt: null }, { fields: ['id'] });
    const known = new Set(found.map((c) => c.id));
    const errors: FieldError[] = rows.flatMap((row, i) =>
      row.campaign_id && !known.has(row.campaign_id)
        ? [{ field: indexed ? `[${i}].campaign_id` : 'campaign_id', message: 'Campaign not found' }]
        : [],
    );
    if (errors.length > 0) throw new ValidationError(errors);
  }
}
