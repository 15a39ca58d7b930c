import { useQuery } from 'urql';
import { Problem } from '../components';
import { label } from '../format';
import { graphql } from '../gql';
import { href } from '../router';

const FLOWS = graphql(`
  query Flows { webhooks { id name status events workspaceId steps { id } } }
`);

export function FlowsPage() {
  const [{ data, error }] = useQuery({ query: FLOWS });
  return (
    <>
      <h1>Flows</h1>
      <Problem error={error} />
      <div className="table-wrap">
        <table>
          <thead><tr><th>Name</th><th>Status</th><th>Steps</th><th>Events</th><th>Workspace</th></tr></thead>
          <tbody>
            {data?.webhooks.map((f) => (
              <tr key={f.id}>
                <td><a href={href('flows', f.id)}>{f.name}</a></td>
                <td>{label(f.status)}</td>
                <td>{f.steps.length}</td>
                <td>{f.events.join(', ') || '—'}</td>
                <td>{f.workspaceId}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
