import { type FormEvent, useState } from 'react';
import { keyAccepted } from '../client';

/** Asks for an API key (or JWT) and checks it once before the console opens. */
export function SignIn({ onKey, notice }: { onKey(key: string): void; notice: string }) {
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const key = String(new FormData(event.currentTarget).get('key') ?? '').trim();
    if (!key) return;
    setBusy(true);
    try {
      if (await keyAccepted(key)) onKey(key);
      else setProblem('This key was refused: check it and try again.');
    } catch {
      setProblem('The service did not answer: try again.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="card signin" onSubmit={submit}>
      <h1>Switchboard console</h1>
      {notice && (
        <p className="notice" role="alert">
          {notice}
        </p>
      )}
      <label htmlFor="key">API key or JWT</label>
      <input id="key" name="key" type="password" autoComplete="off" required autoFocus />
      <p className="hint">
        An API key starts with <code>sk_</code>. The <code>npm start</code> output shows the demo company's key (<code>demo_api_key</code>). It is kept in this tab only.
      </p>
      <button type="submit" disabled={busy}>
        Sign in
      </button>
      <p role="alert" className="error">
        {problem}
      </p>
    </form>
  );
}
