import { type FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { Problem } from '../components';
import { type FieldError, fieldErrors } from '../errors';
import { graphql } from '../gql';
import { navigate } from '../router';
import { versionInput, VersionField } from './run-parts';

const REPLAY = graphql(`
  mutation ReplayCall($id: ID!, $input: ReplayCallInput) {
    replayCall(id: $id, input: $input) {
      id
    }
  }
`);

/**
 * "Replay against…" on a finished call: its caller's side said again to a version of its agent
 * (or the draft) in a simulated call; opens the run, which compares both transcripts.
 */
export function ReplayCall({ callId }: { callId: string }) {
  const [result, replay] = useMutation(REPLAY);
  const [local, setLocal] = useState<FieldError[]>([]);
  const errors = [...local, ...fieldErrors(result.error)];
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { version, errors: found } = versionInput(new FormData(event.currentTarget));
    setLocal(found);
    if (found.length > 0) return;
    const res = await replay({ id: callId, input: { version } });
    if (res.data) navigate('test-runs', res.data.replayCall.id);
  }
  return (
    <section className="card" aria-labelledby="call-replay">
      <h2 id="call-replay">Replay against…</h2>
      <p className="hint">Says this call's caller side again to the agent, in a simulated call (not billed, no carrier), and shows where the two transcripts part.</p>
      <form className="row" onSubmit={submit} aria-label="Replay the call">
        <VersionField errors={errors} />
        <button type="submit" disabled={result.fetching}>
          Replay
        </button>
      </form>
      {errors.length === 0 && <Problem error={result.error} />}
    </section>
  );
}
