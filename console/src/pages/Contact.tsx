import { type FormEvent, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { DeleteCard, FieldMessage, notYet, Problem } from '../components';
import { type FieldError, fieldErrors } from '../errors';
import { dateTime, duration, label } from '../format';
import { graphql } from '../gql';
import type { ContactPageQuery } from '../gql/graphql';
import { href, navigate } from '../router';

/** What the page shows and edits of a contact: read by the page, answered by its update. */
graphql(`
  fragment ContactFields on Contact {
    id
    firstname
    lastname
    phoneNumber
    tagName
    categoryName
    sourceName
    notes
    status
    metadata
    campaign {
      id
      name
    }
  }
`);

const CONTACT = graphql(`
  query ContactPage($id: ID!) {
    contact(id: $id) {
      ...ContactFields
      lastCallStatus
      lastCallAt
      lastCallDuration
      lastCallFeedback
    }
    campaigns(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);

const CONTACT_CALLS = graphql(`
  query ContactCalls($contactId: ID!) {
    calls(first: 20, contactId: $contactId) {
      totalCount
      edges {
        node {
          id
          callStatus
          createdAt
          callDuration
        }
      }
    }
  }
`);

const UPDATE = graphql(`
  mutation UpdateContact($id: ID!, $input: UpdateContactInput!) {
    updateContact(id: $id, input: $input) {
      ...ContactFields
    }
  }
`);

const DELETE = graphql(`
  mutation DeleteContact($id: ID!) {
    deleteContact(id: $id)
  }
`);

const DO_NOT_CALL = graphql(`
  mutation ContactDoNotCall($input: AddDoNotCallNumbersInput!) {
    addDoNotCallNumbers(input: $input) {
      id
      phoneNumber
    }
  }
`);

type Contact = NonNullable<ContactPageQuery['contact']>;

const TEXTS = [
  { key: 'firstname', text: 'First name' },
  { key: 'lastname', text: 'Last name' },
  { key: 'phoneNumber', text: 'Phone number (any format)' },
  { key: 'tagName', text: 'Tag' },
  { key: 'categoryName', text: 'Category' },
  { key: 'sourceName', text: 'Source' },
  { key: 'notes', text: 'Notes' },
] as const;

/** The contact's fields, its campaign and status, saved with updateContact. */
function ContactForm({ contact, campaigns }: { contact: Contact; campaigns: { id: string; name: string }[] }) {
  const [result, update] = useMutation(UPDATE);
  const [saved, setSaved] = useState(false);
  const [local, setLocal] = useState<FieldError[]>([]);
  const errors = [...local, ...fieldErrors(result.error)];
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    let metadata: Record<string, unknown>;
    try {
      metadata = JSON.parse(String(form.get('metadata'))) as Record<string, unknown>;
      setLocal([]);
    } catch {
      setLocal([{ field: 'metadata', message: 'Must be a JSON object, e.g. {}.' }]);
      return;
    }
    const texts = Object.fromEntries(TEXTS.map((t) => [t.key, String(form.get(t.key))]));
    const res = await update({ id: contact.id, input: { ...texts, metadata, status: String(form.get('status')), campaignId: String(form.get('campaignId')) || null } });
    setSaved(!res.error);
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="contact-edit" noValidate>
      <h2 id="contact-edit">Edit</h2>
      {TEXTS.map((t) => (
        <div key={t.key} className="field">
          <label>
            {t.text} <input name={t.key} defaultValue={contact[t.key]} />
          </label>
          <FieldMessage errors={errors} field={t.key} />
        </div>
      ))}
      <label>
        Status
        <select name="status" defaultValue={contact.status}>
          <option value="active">active (campaigns call it)</option>
          <option value="inactive">inactive (campaigns skip it)</option>
        </select>
      </label>
      <FieldMessage errors={errors} field="status" />
      <label>
        Campaign
        <select name="campaignId" defaultValue={contact.campaign?.id ?? ''}>
          <option value="">none</option>
          {campaigns.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <FieldMessage errors={errors} field="campaignId" />
      <label>
        Metadata (JSON) <textarea name="metadata" rows={3} defaultValue={JSON.stringify(contact.metadata, null, 2)} />
      </label>
      <FieldMessage errors={errors} field="metadata" />
      <button type="submit" disabled={result.fetching}>
        Save
      </button>
      {errors.length === 0 && <Problem error={result.error} />}
      <p role="status">{saved ? 'Saved.' : ''}</p>
    </form>
  );
}

/** The contact's latest calls (any campaign, inbound ones too), filtered by the server. */
function ContactCalls({ contact }: { contact: Contact }) {
  const [{ data, error }] = useQuery({ query: CONTACT_CALLS, variables: { contactId: contact.id } });
  const calls = data?.calls.edges.map((e) => e.node) ?? [];
  return (
    <section className="card" aria-labelledby="contact-calls">
      <h2 id="contact-calls">Calls</h2>
      <dl className="facts">
        <dt>Last call</dt>
        <dd>
          {label(contact.lastCallStatus)} {contact.lastCallAt && dateTime(contact.lastCallAt)}
        </dd>
        <dt>Duration</dt>
        <dd>{contact.lastCallDuration == null ? '—' : duration(contact.lastCallDuration)}</dd>
        <dt>Feedback</dt>
        <dd>{contact.lastCallFeedback || '—'}</dd>
      </dl>
      <Problem error={error} />
      {data && (
        <>
          <h3>{data.calls.totalCount > calls.length ? `Latest ${calls.length} of ${data.calls.totalCount}` : `All ${data.calls.totalCount}`}</h3>
          {calls.length === 0 ? (
            <p>None yet.</p>
          ) : (
            <ul className="plain" aria-label="Calls of this contact">
              {calls.map((c) => (
                <li key={c.id}>
                  <a href={href('calls', c.id)}>{dateTime(c.createdAt)}</a> <span className={`badge s-${c.callStatus}`}>{label(c.callStatus)}</span> {duration(c.callDuration)}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** One contact: its campaign and calls, edit, add its number to the do-not-call list, delete. */
export function ContactPage({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: CONTACT, variables: { id } });
  const [listed, list] = useMutation(DO_NOT_CALL);
  const [deleted, remove] = useMutation(DELETE);
  const contact = data?.contact;
  if (!contact) return notYet(error, Boolean(data), 'contact');
  const name = `${contact.firstname} ${contact.lastname}`.trim() || contact.phoneNumber;
  const onDelete = () => void remove({ id }).then((res) => res.error || navigate('contacts'));
  return (
    <>
      <p>
        <a href={href('contacts')}>← Contacts</a>
      </p>
      <h1>{name}</h1>
      <div className="grid">
        <section className="card" aria-labelledby="contact-facts">
          <h2 id="contact-facts">Details</h2>
          <dl className="facts">
            <dt>Phone</dt>
            <dd>{contact.phoneNumber}</dd>
            <dt>Campaign</dt>
            <dd>{contact.campaign ? <a href={href('campaigns', contact.campaign.id)}>{contact.campaign.name}</a> : '—'}</dd>
            <dt>Status</dt>
            <dd>{contact.status}</dd>
          </dl>
          <button
            type="button"
            className="secondary"
            disabled={listed.fetching || Boolean(listed.data)}
            onClick={() => void list({ input: { numbers: [contact.phoneNumber], reason: `contact ${name}` } })}
          >
            Add {contact.phoneNumber} to the do-not-call list
          </button>
          <p role="status">{listed.data ? `${contact.phoneNumber} is on the do-not-call list: no call reaches it.` : ''}</p>
          <Problem error={listed.error} />
        </section>
        <ContactCalls contact={contact} />
      </div>
      <ContactForm contact={contact} campaigns={data.campaigns.edges.map((e) => e.node)} key={contact.id} />
      <DeleteCard what="contact" question={`Delete ${name}? Its calls are kept; campaigns no longer call it.`} busy={deleted.fetching} error={deleted.error} onDelete={onDelete} />
    </>
  );
}
