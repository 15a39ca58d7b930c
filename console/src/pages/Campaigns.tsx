import { useQuery } from 'urql';
import { ListPage, ProgressBar } from '../components';
import { label } from '../format';
import { graphql } from '../gql';
import { href } from '../router';

const CAMPAIGNS = graphql(`
  query Campaigns {
    campaigns(first: 100) {
      totalCount
      edges {
        node {
          id
          name
          status
          callProgress
          workspaceId
          aiAgent {
            name
          }
        }
      }
    }
  }
`);

export function CampaignsPage() {
  const [{ data, error }] = useQuery({ query: CAMPAIGNS });
  return (
    <ListPage
      action={
        <a className="button" href={href('campaigns', 'new')}>
          New campaign
        </a>
      }
      title="Campaigns"
      error={error}
      headers={['Name', 'Status', 'Agent', 'Workspace', 'Progress']}
    >
      {data?.campaigns.edges.map(({ node: c }) => (
        <tr key={c.id}>
          <td>
            <a href={href('campaigns', c.id)}>{c.name}</a>
          </td>
          <td>{label(c.status)}</td>
          <td>{c.aiAgent?.name ?? '—'}</td>
          <td>{c.workspaceId}</td>
          <td>
            <ProgressBar value={c.callProgress} label={`${c.name} progress`} />
          </td>
        </tr>
      ))}
    </ListPage>
  );
}
