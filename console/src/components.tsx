import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { type FieldError, problemOf } from './errors';

/** The API's message for one field, shown beside it (announced to screen readers). */
export function FieldMessage({ errors, field }: { errors: FieldError[]; field: string }) {
  const messages = errors.filter((e) => e.field === field || e.field.startsWith(`${field}.`));
  if (messages.length === 0) return null;
  return <p className="error field-error" role="alert" data-field={field}>{messages.map((e) => e.message).join(' ')}</p>;
}

/** An operation's failure that is not about one field. */
export function Problem({ error }: { error: CombinedError | undefined }) {
  const message = problemOf(error);
  return message ? <p className="error" role="alert">{message}</p> : null;
}

/** A labelled progress bar of `value` out of 100. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  return (
    <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <div className="progress-fill" style={{ width: `${value}%` }} />
      <span className="progress-text">{value}%</span>
    </div>
  );
}

/**
 * What a record's page shows while it has no record: the failure, "No such ..." when the
 * API answered null (not found, or another company's), else a loading line.
 */
export function notYet(error: CombinedError | undefined, answered: boolean, what: string) {
  if (error) return <Problem error={error} />;
  if (answered) return <p>No such {what}.</p>;
  return <p aria-busy="true">Loading…</p>;
}

/** A list page: its title, a failure if any, and a table with these column headers (rows as children). */
export function ListPage({ title, error, headers, children }: { title: string; error: CombinedError | undefined; headers: string[]; children: ReactNode }) {
  return (
    <>
      <h1>{title}</h1>
      <Problem error={error} />
      <Table headers={headers}>{children}</Table>
    </>
  );
}

/** A table that scrolls sideways on its own on a narrow screen, the page never does. */
export function Table({ headers, caption, children }: { headers: string[]; caption?: string; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table>
        {caption && <caption>{caption}</caption>}
        <thead><tr>{headers.map((h) => <th key={h}>{h}</th>)}</tr></thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
