import { useQuery } from 'urql';
import { ProgressBar, Problem } from '../components';
import { label } from '../format';
import { graphql } from '../gql';
import { href } from '../router';

const CAMPAIGNS = graphql(`
  query Campaigns { campaigns(first: 100) { totalCount edges { node { id name status callProgress workspaceId aiAgent { name } } } } }
`);

export function CampaignsPage() {
  const [{ data, error }] = useQuery({ query: CAMPAIGNS });
  return (
    <>
      <h1>Campaigns</h1>
      <Problem error={error} />
      <div className="table-wrap">
        <table>
          <thead><tr><th>Name</th><th>Status</th><th>Agent</th><th>Workspace</th><th>Progress</th></tr></thead>
          <tbody>
            {data?.campaigns.edges.map(({ node: c }) => (
              <tr key={c.id}>
                <td><a href={href('campaigns', c.id)}>{c.name}</a></td>
                <td>{label(c.status)}</td>
                <td>{c.aiAgent?.name ?? '—'}</td>
                <td>{c.workspaceId}</td>
                <td><ProgressBar value={c.callProgress} label={`${c.name} progress`} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
