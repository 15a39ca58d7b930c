import { useState } from 'react';
import { useQuery } from 'urql';
import { Problem, Table } from '../components';
import { dateTime, label } from '../format';
import { graphql } from '../gql';
import { href } from '../router';

const CONTACTS = graphql(`
  query Contacts($after: String, $status: String, $search: String) {
    contacts(first: 25, after: $after, status: $status, search: $search) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          firstname
          lastname
          phoneNumber
          tagName
          categoryName
          status
          lastCallStatus
          lastCallAt
          campaign {
            id
            name
          }
        }
      }
    }
  }
`);

/** Contacts, a page at a time (cursors kept to go back), searched and filtered by the API. */
export function ContactsPage() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const [{ data, error, fetching }] = useQuery({ query: CONTACTS, variables: { after: cursors.at(-1) ?? null, status: status || null, search: search || null } });
  const page = data?.contacts;
  return (
    <>
      <h1>Contacts</h1>
      <p>
        <a className="button" href={href('contacts', 'import')}>
          Import a CSV
        </a>
      </p>
      <form
        className="filters"
        aria-label="Filter contacts"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(String(new FormData(e.currentTarget).get('search') ?? '').trim());
          setCursors([null]);
        }}
      >
        <label>
          Name or number <input name="search" type="search" />
        </label>
        <label>
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setCursors([null]);
            }}
          >
            <option value="">any</option>
            <option value="active">active</option>
            <option value="inactive">inactive</option>
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <Problem error={error} />
      <Table headers={['Name', 'Phone', 'Tag', 'Category', 'Campaign', 'Last call']}>
        {page?.edges.map(({ node: c }) => (
          <tr key={c.id}>
            <td>
              <a href={href('contacts', c.id)}>{`${c.firstname} ${c.lastname}`.trim() || c.phoneNumber}</a>
            </td>
            <td>{c.phoneNumber}</td>
            <td>{c.tagName}</td>
            <td>{c.categoryName}</td>
            <td>{c.campaign ? <a href={href('campaigns', c.campaign.id)}>{c.campaign.name}</a> : '—'}</td>
            <td>
              {label(c.lastCallStatus)} {c.lastCallAt && dateTime(c.lastCallAt)}
            </td>
          </tr>
        ))}
      </Table>
      <nav className="pager" aria-label="Pages">
        <button type="button" disabled={cursors.length === 1 || fetching} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous
        </button>
        <span>
          Page {cursors.length} · {page?.totalCount ?? '…'} contacts
        </span>
        <button type="button" disabled={!page?.pageInfo.hasNextPage || fetching} onClick={() => setCursors((c) => [...c, page!.pageInfo.endCursor ?? null])}>
          Next
        </button>
      </nav>
    </>
  );
}
