import { type ReactNode, useId, useState } from 'react';
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

/** A list page: its title, an action (a link to create one), a failure if any, and a table with these column headers (rows as children). */
export function ListPage({ title, error, headers, action, children }: { title: string; error: CombinedError | undefined; headers: string[]; action?: ReactNode; children: ReactNode }) {
  return (
    <>
      <h1>{title}</h1>
      {action && <p>{action}</p>}
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

/**
 * A card to delete a record: a button, then the question with Delete (focused) and Keep.
 * `onDelete` runs the deletion and leaves the page when it succeeded.
 */
export function DeleteCard({ what, question, busy, error, onDelete }: { what: string; question: string; busy: boolean; error: CombinedError | undefined; onDelete(): void }) {
  const [asked, setAsked] = useState(false);
  const id = useId();
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Delete</h2>
      {!asked ? (
        <button type="button" className="danger" onClick={() => setAsked(true)}>Delete this {what}</button>
      ) : (
        <div className="confirm" role="alertdialog" aria-labelledby={`${id}-q`}>
          <p id={`${id}-q`}>{question}</p>
          <div className="actions">
            <button type="button" className="danger" autoFocus onClick={onDelete} disabled={busy}>Delete</button>
            <button type="button" className="secondary" onClick={() => setAsked(false)}>Keep it</button>
          </div>
        </div>
      )}
      <Problem error={error} />
    </section>
  );
}
