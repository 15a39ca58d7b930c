import { Table } from '../components';
import { graphql } from '../gql';
import type { AudienceFieldsFragment } from '../gql/graphql';
import { href } from '../router';

graphql(`
  fragment AudienceFields on CampaignAudience {
    matched
    callable
    skipped {
      doNotCall
      nonLocal
      inactive
    }
    sample {
      id
      firstname
      lastname
      phoneNumber
      tagName
    }
  }
`);

/** The campaign fields that say whether its selection is every contact of the company. */
export interface Selection {
  contactsListTags: string[];
  contactsListCategories: string[];
  contactsListSource: string[];
}

/** A selection without any filter matches every contact of the company (docs/campaigns.md). */
export const selectsEveryone = (s: Selection) => s.contactsListTags.length + s.contactsListCategories.length + s.contactsListSource.length === 0;

/** What activating asks first, for a selection of every contact; null for any other. */
export function everyoneWarning(s: Selection, audience: AudienceFieldsFragment | undefined): string | null {
  if (!selectsEveryone(s)) return null;
  const counted = audience ? ` (${audience.matched}) and will call ${audience.callable} of them` : '';
  return `This campaign has no contact filter: it selects every contact of the company${counted}.`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Who the campaign will call, as the API counts it now: matched, callable, skipped by reason, and a sample. */
export function AudienceSummary({ audience, selection }: { audience: AudienceFieldsFragment; selection: Selection }) {
  const { skipped } = audience;
  const reasons = [
    [skipped.doNotCall, 'do not call', 'on the do-not-call list'],
    [skipped.nonLocal, 'not local', 'in another country than the calling number, which the campaign does not allow'],
    [skipped.inactive, 'inactive', 'inactive contacts'],
  ] as const;
  const filters = [
    ['tags', selection.contactsListTags],
    ['categories', selection.contactsListCategories],
    ['sources', selection.contactsListSource],
  ].flatMap(([name, values]) => (values.length > 0 ? [`${name as string} ${(values as string[]).join(', ')}`] : []));
  return (
    <div className="audience">
      <p>{selectsEveryone(selection) ? <strong>No contact filter: every contact of the company matches.</strong> : `Contacts with ${filters.join(' and ')}, and those added to the campaign.`}</p>
      <dl className="stats audience-stats" data-testid="audience">
        <div>
          <dt>matched</dt>
          <dd>{audience.matched}</dd>
        </div>
        <div>
          <dt>will be called</dt>
          <dd>{audience.callable}</dd>
        </div>
        {reasons.map(([n, short, why]) => (
          <div key={short} title={`Skipped: ${why}`}>
            <dt>skipped, {short}</dt>
            <dd>{n}</dd>
          </div>
        ))}
      </dl>
      {audience.sample.length > 0 && (
        <Table caption={`${plural(audience.sample.length, 'contact', 'contacts')} it will call (the newest)`} headers={['Name', 'Phone', 'Tag']}>
          {audience.sample.map((c) => (
            <tr key={c.id}>
              <td>
                <a href={href('contacts', c.id)}>{`${c.firstname} ${c.lastname}`.trim() || c.phoneNumber}</a>
              </td>
              <td>{c.phoneNumber}</td>
              <td>{c.tagName}</td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
