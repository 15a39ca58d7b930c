import { Table } from '../components';
import { count } from '../format';
import { graphql } from '../gql';
import type { AudienceFieldsFragment } from '../gql/graphql';
import { href } from '../router';

graphql(`
  fragment AudienceFields on CampaignAudience {
    matched
    matchedExact
    callable
    skipped {
      doNotCall
      nonLocal
      inactive
    }
    capped
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
  const counted = audience ? ` (${count(audience.matched, audience.matchedExact)}) and will call ${calledOf(audience)}` : '';
  return `This campaign has no contact filter: it selects every contact of the company${counted}.`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** How many contacts the API counted (every matched one, or the first of them when capped). */
const countedOf = ({ callable, skipped }: AudienceFieldsFragment) => callable + skipped.doNotCall + skipped.nonLocal + skipped.inactive;

/** Whom it will call, of the matched contacts or, past the API's count limit, of the first it counted. */
const calledOf = (audience: AudienceFieldsFragment) => (audience.capped ? `${count(audience.callable)} of the first ${count(countedOf(audience))}` : `${count(audience.callable)} of them`);

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
          <dd>{count(audience.matched, audience.matchedExact)}</dd>
        </div>
        <div>
          <dt>will be called</dt>
          <dd>{count(audience.callable)}</dd>
        </div>
        {reasons.map(([n, short, why]) => (
          <div key={short} title={`Skipped: ${why}`}>
            <dt>skipped, {short}</dt>
            <dd>{count(n)}</dd>
          </div>
        ))}
      </dl>
      {audience.capped && (
        <p className="hint" data-testid="audience-capped">
          More than {count(countedOf(audience))} contacts match: the calls and skips above are of the first {count(countedOf(audience))}, in the order the campaign calls them (the oldest first).
        </p>
      )}
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
