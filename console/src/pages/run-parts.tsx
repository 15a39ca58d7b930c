import { useId } from 'react';
import { FieldMessage } from '../components';
import type { FieldError } from '../errors';

/** A run's or a scenario's status (queued, running, pending, passed, failed, error) as a badge. */
export function RunStatus({ status }: { status: string }) {
  return <span className={`badge t-${status}`} data-testid="run-status">{status}</span>;
}

/**
 * The agent version a run or a replay plays: a published version's number, or the draft when
 * left empty (the API refuses a number the agent has not published, beside this field).
 */
export function VersionField({ errors }: { errors: FieldError[] }) {
  const hint = useId();
  return (
    <div className="field">
      <label>Against version <input name="version" inputMode="numeric" placeholder="draft" size={8} aria-describedby={hint} /></label>
      <small id={hint} className="hint">A published version's number; empty: the draft.</small>
      <FieldMessage errors={errors} field="version" />
    </div>
  );
}

/** The version the form's VersionField asks for: null for the draft; a number as typed (the API says what is wrong with it). */
export const versionInput = (form: FormData): number | null => {
  const text = String(form.get('version') ?? '').trim();
  return text === '' ? null : Number(text);
};
