import Papa from 'papaparse';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Problem, Table } from '../components';
import { fieldErrors } from '../errors';
import { graphql } from '../gql';
import type { ContactCsvMappingInput } from '../gql/graphql';
import { href } from '../router';

const IMPORT = graphql(`
  mutation ImportContactsCsv($input: ImportContactsCsvInput!) {
    importContactsCsv(input: $input) {
      imported
      dryRun
    }
  }
`);

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

/** The contact fields a column can fill, and header names that suggest each. */
const TARGETS = [
  { key: 'phoneNumber', text: 'Phone number', guess: /^(phone|phone_?number|mobile|number|tel)$/ },
  { key: 'firstName', text: 'First name', guess: /^(first_?name|given_?name)$/ },
  { key: 'lastName', text: 'Last name', guess: /^(last_?name|surname|family_?name)$/ },
  { key: 'tag', text: 'Tag', guess: /^tag(_?name)?$/ },
  { key: 'category', text: 'Category', guess: /^category(_?name)?$/ },
] as const;

type Single = Omit<ContactCsvMappingInput, 'metadata'>;

interface Parsed {
  name: string;
  text: string;
  headers: string[];
  rows: Record<string, string>[];
}

const PREVIEW_ROWS = 5;
const SHOWN_ERRORS = 200;

/** `[14].phone_number` -> line 14, field phone_number (the API numbers CSV lines from the header's 1). */
function rowError(field: string): { line: string; field: string } {
  const match = /^\[(\d+)\]\.?(.*)$/.exec(field);
  return match ? { line: match[1], field: match[2] } : { line: '', field };
}

/** Reads a CSV file in the browser (Papa Parse) for its header, a preview and the row count. */
function parse(name: string, text: string): Parsed {
  const result = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy' });
  return { name, text, headers: result.meta.fields ?? [], rows: result.data };
}

/** `First Name` and `first-name` read as `first_name`. */
const normalised = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

const guessMapping = (headers: string[]): Single => Object.fromEntries(TARGETS.map((t) => [t.key, headers.find((h) => t.guess.test(normalised(h))) ?? '']));

/** CSV import: a preview, the column mapping, a check without writing (dry run), then the import; per-row errors from the API. */
export function ImportPage() {
  const [file, setFile] = useState<Parsed | null>(null);
  const [mapping, setMapping] = useState<Single>({ phoneNumber: '' });
  const [metadata, setMetadata] = useState<string[]>([]);
  const [campaignId, setCampaignId] = useState('');
  const [{ data: campaigns }] = useQuery({ query: CAMPAIGN_OPTIONS });
  const [outcome, run] = useMutation(IMPORT);
  // The file the last check or import was of: another file chosen shows no result of the previous one.
  const [ranOn, setRanOn] = useState<Parsed | null>(null);
  const result = ranOn === file ? outcome : { fetching: false, data: undefined, error: undefined };
  const errors = fieldErrors(result.error);
  const badLines = new Set(errors.map((e) => rowError(e.field).line)).size;

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    const parsed = parse(chosen.name, await chosen.text());
    const guessed = guessMapping(parsed.headers);
    setFile(parsed);
    setMapping(guessed);
    setMetadata(parsed.headers.filter((h) => !Object.values(guessed).includes(h)));
  }

  function submit(dryRun: boolean) {
    return (event: FormEvent) => {
      event.preventDefault();
      if (!file) return;
      const single = Object.fromEntries(Object.entries(mapping).filter(([, column]) => column)) as Single;
      setRanOn(file);
      void run({ input: { csv: file.text, mapping: { ...single, metadata }, campaignId: campaignId || null, dryRun } });
    };
  }

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
        {file && (
          <>
            <p>
              {file.name}: {file.rows.length} rows, columns {file.headers.join(', ')}.
            </p>
            <div className="row">
              {TARGETS.map((t) => (
                // Labelled by id, not by wrapping: a wrapped select's name would include its chosen column.
                <div key={t.key} className="field">
                  <label htmlFor={`map-${t.key}`}>{t.text}</label>
                  <select id={`map-${t.key}`} value={mapping[t.key] ?? ''} required={t.key === 'phoneNumber'} onChange={(e) => setMapping((m) => ({ ...m, [t.key]: e.target.value }))}>
                    <option value="">{t.key === 'phoneNumber' ? 'choose a column' : 'none'}</option>
                    {file.headers.map((h) => (
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
              {file.headers.map((h) => (
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
            <Table
              caption={`Preview: the first ${Math.min(PREVIEW_ROWS, file.rows.length)} rows as they will be read`}
              headers={['Line', ...mapped.map((t) => t.text), ...metadata.map((h) => `${h} (metadata)`)]}
            >
              {file.rows.slice(0, PREVIEW_ROWS).map((row, i) => (
                <tr key={i}>
                  <td>{i + 2}</td>
                  {mapped.map((t) => (
                    <td key={t.key}>{row[mapping[t.key]!]}</td>
                  ))}
                  {metadata.map((h) => (
                    <td key={h}>{row[h]}</td>
                  ))}
                </tr>
              ))}
            </Table>
            <div className="row">
              <button type="button" onClick={submit(true)} disabled={outcome.fetching || !mapping.phoneNumber}>
                Check without importing
              </button>
              <button type="submit" disabled={outcome.fetching || !mapping.phoneNumber}>
                Import
              </button>
            </div>
          </>
        )}
      </form>
      <section className="card" aria-labelledby="import-result" aria-live="polite">
        <h2 id="import-result">Result</h2>
        {result.fetching && <p>Working…</p>}
        {result.data && (
          <p role="status">
            {result.data.importContactsCsv.dryRun
              ? `All ${result.data.importContactsCsv.imported} rows are valid: nothing was written yet.`
              : `${result.data.importContactsCsv.imported} contacts imported.`}
          </p>
        )}
        {errors.length > 0 && (
          <>
            <p className="error" role="alert">
              {badLines === 1 ? '1 row has' : `${badLines} rows have`} problems: nothing was imported.
            </p>
            <ul className="plain row-errors">
              {errors.slice(0, SHOWN_ERRORS).map((e) => {
                const where = rowError(e.field);
                return (
                  <li key={e.field}>
                    Line {where.line}
                    {where.field && ` (${where.field})`}: {e.message}
                  </li>
                );
              })}
            </ul>
            {errors.length > SHOWN_ERRORS && <p>and {errors.length - SHOWN_ERRORS} more.</p>}
          </>
        )}
        {errors.length === 0 && <Problem error={result.error} />}
      </section>
    </>
  );
}
