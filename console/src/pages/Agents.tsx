import { useQuery } from 'urql';
import { ListPage } from '../components';
import { label } from '../format';
import { graphql } from '../gql';
import { href } from '../router';

const AGENTS = graphql(`
  query Agents {
    aiAgents {
      id
      name
      description
      status
      language
      workspaceId
    }
  }
`);

export function AgentsPage() {
  const [{ data, error }] = useQuery({ query: AGENTS });
  return (
    <ListPage
      action={
        <a className="button" href={href('agents', 'new')}>
          New agent
        </a>
      }
      title="Agents"
      error={error}
      headers={['Name', 'Description', 'Status', 'Language', 'Workspace']}
    >
      {data?.aiAgents.map((a) => (
        <tr key={a.id}>
          <td>
            <a href={href('agents', a.id)}>{a.name}</a>
          </td>
          <td>{a.description}</td>
          <td>{label(a.status)}</td>
          <td>{a.language}</td>
          <td>{a.workspaceId}</td>
        </tr>
      ))}
    </ListPage>
  );
}
