import { useQuery } from 'urql';
import { ListPage } from '../components';
import { label } from '../format';
import { graphql } from '../gql';
import { href } from '../router';

const FLOWS = graphql(`
  query Flows {
    webhooks {
      id
      name
      status
      events
      workspaceId
      steps {
        id
      }
    }
  }
`);

export function FlowsPage() {
  const [{ data, error }] = useQuery({ query: FLOWS });
  return (
    <ListPage
      action={
        <a className="button" href={href('flows', 'new')}>
          New flow
        </a>
      }
      title="Flows"
      error={error}
      headers={['Name', 'Status', 'Steps', 'Events', 'Workspace']}
    >
      {data?.webhooks.map((f) => (
        <tr key={f.id}>
          <td>
            <a href={href('flows', f.id)}>{f.name}</a>
          </td>
          <td>{label(f.status)}</td>
          <td>{f.steps.length}</td>
          <td>{f.events.join(', ') || '—'}</td>
          <td>{f.workspaceId}</td>
        </tr>
      ))}
    </ListPage>
  );
}
