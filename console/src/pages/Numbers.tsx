import { type FormEvent, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { FieldMessage, Problem, Table } from '../components';
import { fieldErrors } from '../errors';
import { graphql } from '../gql';

const NUMBERS = graphql(`
  query PhoneNumbers {
    phoneNumbers {
      id
      phoneNumber
      countryCode
      label
      inboundAgentId
    }
    aiAgents {
      id
      name
    }
  }
`);

const CREATE = graphql(`
  mutation CreatePhoneNumber($input: CreatePhoneNumberInput!) {
    createPhoneNumber(input: $input) {
      id
    }
  }
`);

const UPDATE = graphql(`
  mutation UpdatePhoneNumber($id: ID!, $input: UpdatePhoneNumberInput!) {
    updatePhoneNumber(id: $id, input: $input) {
      id
      label
      inboundAgentId
    }
  }
`);

const DELETE = graphql(`
  mutation DeletePhoneNumber($id: ID!) {
    deletePhoneNumber(id: $id)
  }
`);

/** The company's numbers: add one, choose the agent answering each, remove one. */
export function NumbersPage() {
  const [{ data, error }, reread] = useQuery({ query: NUMBERS });
  const [created, create] = useMutation(CREATE);
  const [updated, update] = useMutation(UPDATE);
  const [deleted, remove] = useMutation(DELETE);
  const [added, setAdded] = useState('');
  const errors = fieldErrors(created.error);
  const after = () => reread({ requestPolicy: 'network-only' });

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    setAdded('');
    const res = await create({ input: { phoneNumber: String(fields.get('phoneNumber')), label: String(fields.get('label')) } });
    if (res.error) return;
    setAdded(`${String(fields.get('phoneNumber'))} added.`);
    form.reset();
    after();
  }

  return (
    <>
      <h1>Phone numbers</h1>
      <form className="card" onSubmit={add} aria-labelledby="add-number" noValidate>
        <h2 id="add-number">Add a number</h2>
        <div className="row">
          <label>
            Number (any format) <input name="phoneNumber" type="tel" autoComplete="off" required />
          </label>
          <label>
            Label <input name="label" />
          </label>
          <button type="submit" disabled={created.fetching}>
            Add
          </button>
        </div>
        <FieldMessage errors={errors} field="phoneNumber" />
        <FieldMessage errors={errors} field="label" />
        {errors.length === 0 && <Problem error={created.error} />}
        <p role="status">{added}</p>
      </form>
      <Problem error={error ?? updated.error ?? deleted.error} />
      <Table headers={['Number', 'Label', 'Answered by', '']}>
        {data?.phoneNumbers.map((n) => (
          <tr key={n.id}>
            <td>{n.phoneNumber}</td>
            <td>{n.label || '—'}</td>
            <td>
              <select
                aria-label={`Agent answering ${n.phoneNumber}`}
                value={n.inboundAgentId ?? ''}
                onChange={(e) => void update({ id: n.id, input: { inboundAgentId: e.target.value || null } }).then(after)}
              >
                <option value="">nobody (calls are rejected)</option>
                {data.aiAgents.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </td>
            <td>
              <button type="button" className="link" aria-label={`Remove ${n.phoneNumber}`} onClick={() => void remove({ id: n.id }).then(after)}>
                Remove
              </button>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}
