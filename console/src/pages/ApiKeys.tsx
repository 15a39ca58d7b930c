import { useMutation, useQuery } from 'urql';
import { Problem, Table } from '../components';
import { dateTime } from '../format';
import { graphql } from '../gql';

const KEYS = graphql(`
  query ApiKeys {
    apiKeys {
      id
      prefix
      createdAt
      revokedAt
    }
  }
`);

const CREATE = graphql(`
  mutation CreateApiKey {
    createApiKey {
      id
      prefix
      createdAt
      revokedAt
      secret
    }
  }
`);

const REVOKE = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      id
      revokedAt
    }
  }
`);

/** The company's API keys: create one (the key shown once, here), revoke one. */
export function ApiKeysPage() {
  const [{ data, error }, reread] = useQuery({ query: KEYS });
  const [created, create] = useMutation(CREATE);
  const [revoked, revoke] = useMutation(REVOKE);
  const secret = created.data?.createApiKey.secret;
  const after = () => reread({ requestPolicy: 'network-only' });
  return (
    <>
      <h1>API keys</h1>
      <section className="card" aria-labelledby="new-key">
        <h2 id="new-key">New key</h2>
        <p className="hint">A key acts for the whole company, on the API and in this console. It is shown once, when it is created: only a hash of it is kept.</p>
        <button type="button" onClick={() => void create({}).then(after)} disabled={created.fetching}>
          Create a key
        </button>
        <Problem error={created.error} />
        {secret && (
          <div role="status">
            <p>Your new key (copy it now: it is not shown again):</p>
            <p className="secret" data-testid="new-key">
              {secret}
            </p>
          </div>
        )}
      </section>
      <Problem error={error ?? revoked.error} />
      <Table headers={['Key', 'Created', 'Revoked', '']}>
        {data?.apiKeys.map((k) => (
          <tr key={k.id}>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td>{dateTime(k.createdAt)}</td>
            <td>{k.revokedAt ? dateTime(k.revokedAt) : '—'}</td>
            <td>
              {!k.revokedAt && (
                <button type="button" className="link" aria-label={`Revoke ${k.prefix}…`} disabled={revoked.fetching} onClick={() => void revoke({ id: k.id }).then(after)}>
                  Revoke
                </button>
              )}
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}
