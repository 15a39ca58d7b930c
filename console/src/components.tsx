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
