import { useId } from 'react';
import { FieldMessage } from '../components';
import type { FieldError } from '../errors';

/** A run's or a scenario's status (queued, running, pending, passed, failed, error) as a badge. */
export function RunStatus({ status }: { status: string }) {
  return (
    <span className={`badge t-${status}`} data-testid="run-status">
      {status}
    </span>
  );
}

/**
 * The agent version a run or a replay plays: a published version's number, or the draft when
 * left empty (the API refuses a number the agent has not published, beside this field).
 */
export function VersionField({ errors }: { errors: FieldError[] }) {
  const hint = useId();
  return (
    <div className="field">
      <label>
        Against version <input name="version" inputMode="numeric" placeholder="draft" size={8} aria-describedby={hint} />
      </label>
      <small id={hint} className="hint">
        A published version's number; empty: the draft.
      </small>
      <FieldMessage errors={errors} field="version" />
    </div>
  );
}

/**
 * The version the form's VersionField asks for: null for the draft, else the whole number typed
 * (the API says whether the agent has it); text that is not one is an error of the field.
 */
export function versionInput(form: FormData): { version: number | null; errors: FieldError[] } {
  const text = String(form.get('version') ?? '').trim();
  if (text === '') return { version: null, errors: [] };
  const version = Number(text);
  return Number.isInteger(version) ? { version, errors: [] } : { version: null, errors: [{ field: 'version', message: 'Must be a whole number, or empty for the draft' }] };
}
