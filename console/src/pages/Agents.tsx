import { useQuery } from 'urql';
import { Problem } from '../components';
import { label } from '../format';
import { graphql } from '../gql';
import { href } from '../router';

const AGENTS = graphql(`
  query Agents { aiAgents { id name description status language workspaceId } }
`);

export function AgentsPage() {
  const [{ data, error }] = useQuery({ query: AGENTS });
  return (
    <>
      <h1>Agents</h1>
      <Problem error={error} />
      <div className="table-wrap">
        <table>
          <thead><tr><th>Name</th><th>Description</th><th>Status</th><th>Language</th><th>Workspace</th></tr></thead>
          <tbody>
            {data?.aiAgents.map((a) => (
              <tr key={a.id}>
                <td><a href={href('agents', a.id)}>{a.name}</a></td>
                <td>{a.description}</td>
                <td>{label(a.status)}</td>
                <td>{a.language}</td>
                <td>{a.workspaceId}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
