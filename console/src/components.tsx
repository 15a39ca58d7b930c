import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { CombinedError } from 'urql';
import { type FieldError, problemOf } from './errors';

/** The API's message for one field, shown beside it (announced to screen readers). */
export function FieldMessage({ errors, field }: { errors: FieldError[]; field: string }) {
  const messages = errors.filter((e) => e.field === field || e.field.startsWith(`${field}.`));
  if (messages.length === 0) return null;
  return (
    <p className="error field-error" role="alert" data-field={field}>
      {messages.map((e) => e.message).join(' ')}
    </p>
  );
}

/** An operation's failure that is not about one field. */
export function Problem({ error }: { error: CombinedError | undefined }) {
  const message = problemOf(error);
  return message ? (
    <p className="error" role="alert">
      {message}
    </p>
  ) : null;
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
        <thead>
          <tr>
            {headers.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/**
 * A question asked in place (a confirmation): whether it is open, and the button that opens it,
 * which takes the focus back when the question closes (the question's buttons are gone then).
 */
export function useQuestion() {
  const [asked, setAsked] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const wasAsked = useRef(false);
  useEffect(() => {
    if (!asked && wasAsked.current) trigger.current?.focus();
    wasAsked.current = asked;
  }, [asked]);
  return { asked, ask: () => setAsked(true), close: () => setAsked(false), trigger };
}

/**
 * A card to delete a record: a button, then the question with Delete (focused) and Keep.
 * `onDelete` runs the deletion and leaves the page when it succeeded.
 */
export function DeleteCard({ what, question, busy, error, onDelete }: { what: string; question: string; busy: boolean; error: CombinedError | undefined; onDelete(): void }) {
  const { asked, ask, close, trigger } = useQuestion();
  const id = useId();
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Delete</h2>
      {!asked ? (
        <button type="button" className="danger" ref={trigger} onClick={ask}>
          Delete this {what}
        </button>
      ) : (
        <div className="confirm" role="alertdialog" aria-labelledby={`${id}-q`}>
          <p id={`${id}-q`}>{question}</p>
          <div className="actions">
            <button type="button" className="danger" autoFocus onClick={onDelete} disabled={busy}>
              Delete
            </button>
            <button type="button" className="secondary" onClick={close}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <Problem error={error} />
    </section>
  );
}

/** A status change; when `confirm` says why, it asks first (its first button takes the focus, the trigger gets it back). */
export function StatusButton({ text, busy, confirm, onGo }: { text: string; busy: boolean; confirm: string | null; onGo(): void }) {
  const { asked, ask, close, trigger } = useQuestion();
  if (!asked || !confirm) {
    return (
      <button type="button" ref={trigger} onClick={() => (confirm ? ask() : onGo())} disabled={busy}>
        {text}
      </button>
    );
  }
  return (
    <div className="confirm" role="alertdialog" aria-labelledby="confirm-activate">
      <p id="confirm-activate">{confirm} Activate it?</p>
      <div className="actions">
        <button
          type="button"
          autoFocus
          onClick={() => {
            close();
            onGo();
          }}
        >
          Call them all
        </button>
        <button type="button" className="secondary" onClick={close}>
          Not now
        </button>
      </div>
    </div>
  );
}
