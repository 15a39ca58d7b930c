import { type ChangeEvent, type FormEvent, useContext, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { Authorization } from '../client';
import { Table } from '../components';
import type { FieldError } from '../errors';
import { graphql } from '../gql';
import { href } from '../router';

const CAMPAIGN_OPTIONS = graphql(`
  query ImportCampaigns {
    campaigns(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);

/** The contact fields a column can fill (REST's mapping keys), and header names that suggest each. */
const TARGETS = [
  { key: 'phone_number', text: 'Phone number', stored: 'phone_number', guess: /^(phone|phone_?number|mobile|number|tel)$/ },
  { key: 'first_name', text: 'First name', stored: 'firstname', guess: /^(first_?name|given_?name)$/ },
  { key: 'last_name', text: 'Last name', stored: 'lastname', guess: /^(last_?name|surname|family_?name)$/ },
  { key: 'tag', text: 'Tag', stored: 'tag_name', guess: /^tag(_?name)?$/ },
  { key: 'category', text: 'Category', stored: 'category_name', guess: /^category(_?name)?$/ },
] as const;

type Mapping = Partial<Record<(typeof TARGETS)[number]['key'], string>>;

/** A row problem of the server's dry run (`line` null: the mapping against the header). */
interface RowError {
  line: number | null;
  field: string | null;
  message: string;
}

/** The answer of POST /v1/contacts/import (docs/rest.md, "Importing contacts from CSV"). */
interface Answer {
  rows: number;
  imported: number;
  updated: number;
  duplicates: number;
  dry_run: boolean;
  preview?: {
    delimiter: string;
    header: string[];
    sample: { line: number; action: string; contact: Record<(typeof TARGETS)[number]['stored'], string | null> & { metadata: Record<string, string> | null } }[];
    invalid_rows: number;
    errors: RowError[];
    error_count: number;
  };
}

/** What the server said about the chosen file: an answer, or a refusal (its message and fields). */
type Outcome = { answer: Answer } | { refused: string; fields: FieldError[] };

const SHOWN_ERRORS = 200;

/** `[14].phone_number` -> line 14, field phone_number (a refused import names rows so). */
function asRowError({ field, message }: FieldError): RowError {
  const match = /^\[(\d+)\]\.?(.*)$/.exec(field);
  return match ? { line: Number(match[1]), field: match[2] || null, message } : { line: null, field, message };
}

/** `First Name` and `first-name` read as `first_name`. */
const normalised = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

const guessMapping = (headers: string[]): Mapping => Object.fromEntries(TARGETS.map((t) => [t.key, headers.find((h) => t.guess.test(normalised(h))) ?? '']));

/**
 * Sends the file's bytes to the server's import (the file as the browser read it from disk, never
 * decoded here): a dry run answers the preview, so the delimiter, the encoding and every rule are
 * the server's. No mapping: the header maps itself.
 */
async function send(authorization: string, file: File, options: { mapping?: Mapping; metadata: string[]; campaignId: string; dryRun: boolean }): Promise<Outcome> {
  const query = new URLSearchParams({ dry_run: String(options.dryRun), ...(options.campaignId ? { campaign_id: options.campaignId } : {}) });
  const form = new FormData();
  if (options.mapping) form.append('mapping', JSON.stringify({ ...Object.fromEntries(Object.entries(options.mapping).filter(([, column]) => column)), metadata: options.metadata }));
  form.append('file', file);
  try {
    const res = await fetch(`/v1/contacts/import?${query.toString()}`, { method: 'POST', headers: { authorization }, body: form });
    const body = (await res.json()) as { status: string; message: string; data: unknown };
    if (body.status === 'ok') return { answer: body.data as Answer };
    return { refused: body.message, fields: Array.isArray(body.data) ? (body.data as FieldError[]) : [] };
  } catch {
    return { refused: 'The service did not answer: try again.', fields: [] };
  }
}

/** CSV import: the server's preview of the chosen file (a dry run), the column mapping, a check again, then the import; per-row errors from the server. */
export function ImportPage() {
  const authorization = useContext(Authorization);
  const [file, setFile] = useState<File | null>(null);
  const [header, setHeader] = useState<string[]>([]);
  const [mapping, setMapping] = useState<Mapping>({});
  const [metadata, setMetadata] = useState<string[]>([]);
  const [campaignId, setCampaignId] = useState('');
  const [{ data: campaigns }] = useQuery({ query: CAMPAIGN_OPTIONS });
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  // The file chosen last: an answer about an earlier file arriving late is dropped.
  const current = useRef<File | null>(null);

  async function run(chosen: File, options: Parameters<typeof send>[2]): Promise<Outcome | null> {
    setBusy(true);
    const got = await send(authorization, chosen, options);
    if (current.current !== chosen) return null;
    setBusy(false);
    setOutcome(got);
    return got;
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    current.current = chosen;
    setFile(chosen);
    setOutcome(null);
    setHeader([]);
    setBusy(true);
    const first = await send(authorization, chosen, { metadata: [], campaignId, dryRun: true });
    if (current.current !== chosen) return;
    if ('answer' in first) {
      const names = first.answer.preview?.header ?? [];
      const guessed = guessMapping(names);
      const rest = names.filter((h) => !Object.values(guessed).includes(h));
      setHeader(names);
      setMapping(guessed);
      setMetadata(rest);
      // The header did not map itself (or no row passed): the preview follows the guessed mapping.
      if (!first.answer.preview?.sample.length && guessed.phone_number) {
        await run(chosen, { mapping: guessed, metadata: rest, campaignId, dryRun: true });
        return;
      }
    }
    setBusy(false);
    setOutcome(first);
  }

  function submit(dryRun: boolean) {
    return (event: FormEvent) => {
      event.preventDefault();
      if (file) void run(file, { mapping, metadata, campaignId, dryRun });
    };
  }

  const answer = outcome && 'answer' in outcome ? outcome.answer : null;
  const preview = answer?.preview;
  const errors: RowError[] = preview ? preview.errors : outcome && 'refused' in outcome ? outcome.fields.map(asRowError) : [];
  const badRows = preview ? preview.invalid_rows : new Set(errors.filter((e) => e.line !== null).map((e) => e.line)).size;
  const mapped = TARGETS.filter((t) => mapping[t.key]);
  return (
    <>
      <p>
        <a href={href('contacts')}>← Contacts</a>
      </p>
      <h1>Import contacts from a CSV file</h1>
      <form className="card" onSubmit={submit(false)} aria-labelledby="import-form">
        <h2 id="import-form">File and columns</h2>
        <label>
          CSV file (first line: column names) <input type="file" accept=".csv,text/csv" onChange={choose} />
        </label>
        {file && preview && (
          <p>
            {file.name}: {answer.rows} rows, columns {preview.header.join(', ')} (separated by {preview.delimiter === '\t' ? 'tabs' : `"${preview.delimiter}"`}).
          </p>
        )}
        {file && header.length > 0 && (
          <>
            <div className="row">
              {TARGETS.map((t) => (
                // Labelled by id, not by wrapping: a wrapped select's name would include its chosen column.
                <div key={t.key} className="field">
                  <label htmlFor={`map-${t.key}`}>{t.text}</label>
                  <select id={`map-${t.key}`} value={mapping[t.key] ?? ''} required={t.key === 'phone_number'} onChange={(e) => setMapping((m) => ({ ...m, [t.key]: e.target.value }))}>
                    <option value="">{t.key === 'phone_number' ? 'choose a column' : 'none'}</option>
                    {header.map((h) => (
                      <option key={h} value={h}>
                        {h}
                      </option>
                    ))}
                  </select>
                </div>
              ))}
            </div>
            <fieldset className="choices">
              <legend>Metadata columns (kept on the contact by their names)</legend>
              {header.map((h) => (
                <label key={h} className="inline">
                  <input type="checkbox" checked={metadata.includes(h)} onChange={(e) => setMetadata((all) => (e.target.checked ? [...all, h] : all.filter((x) => x !== h)))} /> {h}
                </label>
              ))}
            </fieldset>
            <label>
              Add to campaign
              <select value={campaignId} onChange={(e) => setCampaignId(e.target.value)}>
                <option value="">none</option>
                {campaigns?.campaigns.edges.map(({ node }) => (
                  <option key={node.id} value={node.id}>
                    {node.name}
                  </option>
                ))}
              </select>
            </label>
            <div className="row">
              <button type="button" onClick={submit(true)} disabled={busy || !mapping.phone_number}>
                Check without importing
              </button>
              <button type="submit" disabled={busy || !mapping.phone_number}>
                Import
              </button>
            </div>
          </>
        )}
        {preview && preview.sample.length > 0 && (
          <Table
            caption={`Preview: the first ${preview.sample.length} valid rows as the server will store them`}
            headers={['Line', ...mapped.map((t) => t.text), ...metadata.map((h) => `${h} (metadata)`)]}
          >
            {preview.sample.map(({ line, contact }) => (
              <tr key={line}>
                <td>{line}</td>
                {mapped.map((t) => (
                  <td key={t.key}>{contact[t.stored]}</td>
                ))}
                {metadata.map((h) => (
                  <td key={h}>{contact.metadata?.[h]}</td>
                ))}
              </tr>
            ))}
          </Table>
        )}
      </form>
      <section className="card" aria-labelledby="import-result" aria-live="polite">
        <h2 id="import-result">Result</h2>
        {busy && <p>Working…</p>}
        {answer && errors.length === 0 && <p role="status">{answer.dry_run ? `All ${answer.rows} rows are valid: nothing was written yet.` : `${answer.imported} contacts imported.`}</p>}
        {errors.length > 0 && (
          <>
            <p className="error" role="alert">
              {badRows > 0
                ? `${badRows === 1 ? '1 row has' : `${badRows} rows have`} problems: nothing ${answer ? 'will be' : 'was'} imported.`
                : answer
                  ? 'The columns do not fit the file: nothing will be imported.'
                  : 'The server refuses this file: nothing was imported.'}
            </p>
            <ul className="plain row-errors">
              {errors.slice(0, SHOWN_ERRORS).map((e) => (
                <li key={`${e.line ?? ''}.${e.field ?? ''}`}>
                  {e.line === null ? e.field : `Line ${e.line}`}
                  {e.line !== null && e.field && ` (${e.field})`}: {e.message}
                </li>
              ))}
            </ul>
            {(preview?.error_count ?? errors.length) > SHOWN_ERRORS && <p>and {(preview?.error_count ?? errors.length) - SHOWN_ERRORS} more.</p>}
          </>
        )}
        {outcome && 'refused' in outcome && errors.length === 0 && (
          <p className="error" role="alert">
            {outcome.refused}
          </p>
        )}
      </section>
    </>
  );
}
