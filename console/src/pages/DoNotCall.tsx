import Papa from 'papaparse';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { FieldMessage, Problem, Table } from '../components';
import { fieldErrors } from '../errors';
import { dateTime } from '../format';
import { graphql } from '../gql';

const LIST = graphql(`
  query DoNotCallList($after: String) {
    doNotCallNumbers(first: 50, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          phoneNumber
          reason
          createdAt
        }
      }
    }
  }
`);

const ADD = graphql(`
  mutation AddDoNotCall($input: AddDoNotCallNumbersInput!) {
    addDoNotCallNumbers(input: $input) {
      id
    }
  }
`);

const REMOVE = graphql(`
  mutation RemoveDoNotCall($number: String!) {
    removeDoNotCallNumber(number: $number)
  }
`);

/** The first cell of each row of a file (a CSV or one number a line), a header without digits left out. */
function numbersOf(text: string): string[] {
  const rows = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' }).data;
  const cells = rows.map((row) => (row[0] ?? '').trim()).filter(Boolean);
  return cells.length > 0 && !/\d/.test(cells[0]) ? cells.slice(1) : cells;
}

/** The do-not-call list: numbers added by hand or from a file, removed one by one; calls never reach them. */
export function DoNotCallPage() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [{ data, error, fetching }, reread] = useQuery({ query: LIST, variables: { after: cursors.at(-1) ?? null } });
  const [added, add] = useMutation(ADD);
  const [removed, remove] = useMutation(REMOVE);
  const [done, setDone] = useState('');
  const errors = fieldErrors(added.error);
  const page = data?.doNotCallNumbers;
  const after = () => reread({ requestPolicy: 'network-only' });

  async function addNumbers(numbers: string[], reason: string) {
    setDone('');
    const res = await add({ input: { numbers, reason: reason || null } });
    if (res.error) return false;
    setDone(`${numbers.length === 1 ? '1 number' : `${numbers.length} numbers`} listed.`);
    after();
    return true;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const numbers = String(fields.get('numbers'))
      .split('\n')
      .map((n) => n.trim())
      .filter(Boolean);
    if (await addNumbers(numbers, String(fields.get('reason')).trim())) form.reset();
  }

  async function load(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    await addNumbers(numbersOf(await file.text()), `imported from ${file.name}`);
    event.target.value = '';
  }

  return (
    <>
      <h1>Do not call</h1>
      <p className="hint">No call reaches a number on this list: a test call to it is refused, campaigns skip it.</p>
      <form className="card" onSubmit={submit} aria-labelledby="add-dnc" noValidate>
        <h2 id="add-dnc">Add numbers</h2>
        <label>
          Numbers, one a line (any format) <textarea name="numbers" rows={3} required />
        </label>
        <label>
          Reason <input name="reason" />
        </label>
        <button type="submit" disabled={added.fetching}>
          Add to the list
        </button>
        <label>
          Or import a file (CSV or text: the first column of each line) <input type="file" accept=".csv,.txt,text/csv,text/plain" onChange={load} />
        </label>
        <FieldMessage errors={errors} field="numbers" />
        {errors.length === 0 && <Problem error={added.error} />}
        <p role="status">{done}</p>
      </form>
      <Problem error={error ?? removed.error} />
      <Table headers={['Number', 'Reason', 'Added', '']}>
        {page?.edges.map(({ node: n }) => (
          <tr key={n.id}>
            <td>{n.phoneNumber}</td>
            <td>{n.reason ?? '—'}</td>
            <td>{dateTime(n.createdAt)}</td>
            <td>
              <button type="button" className="link" aria-label={`Remove ${n.phoneNumber}`} onClick={() => void remove({ number: n.phoneNumber }).then(after)}>
                Remove
              </button>
            </td>
          </tr>
        ))}
      </Table>
      <nav className="pager" aria-label="Pages">
        <button type="button" disabled={cursors.length === 1 || fetching} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous
        </button>
        <span>
          Page {cursors.length} · {page?.totalCount ?? '…'} numbers
        </span>
        <button type="button" disabled={!page?.pageInfo.hasNextPage || fetching} onClick={() => setCursors((c) => [...c, page!.pageInfo.endCursor ?? null])}>
          Next
        </button>
      </nav>
    </>
  );
}
