import { type FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { Problem } from '../components';
import { fieldErrors } from '../errors';
import { graphql } from '../gql';
import type { AgentPageQuery, PlaygroundTurnMutation } from '../gql/graphql';

const TURN = graphql(`
  mutation PlaygroundTurn($id: ID!, $input: TestAgentTurnInput!) {
    testAgentTurn(id: $id, input: $input) {
      reply
      state
      endReason
      error
      toolCalls {
        name
        arguments
      }
    }
  }
`);

interface Message {
  role: 'user' | 'agent';
  content: string;
  toolCalls?: PlaygroundTurnMutation['testAgentTurn']['toolCalls'];
  /** How the call would end after this turn, and why the model failed when it did. */
  endReason?: string | null;
  error?: string | null;
}

/** The `{{name}}` placeholders of a prompt: the variables a call would fill. */
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]))];

type Agent = NonNullable<AgentPageQuery['aiAgent']>;

/** Chats with the agent through `testAgentTurn` (no call placed), with editable dynamic variables. */
export function Playground({ agent }: { agent: Agent }) {
  const [variables, setVariables] = useState(() => placeholders(`${agent.prompt} ${agent.welcomeGreeting ?? ''} ${JSON.stringify(agent.agentFlow)}`).map((name) => ({ name, value: '' })));
  const [messages, setMessages] = useState<Message[]>([]);
  const [state, setState] = useState<string | null>(null);
  const [result, turn] = useMutation(TURN);
  const errors = fieldErrors(result.error);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const text = String(new FormData(form).get('message') ?? '').trim();
    const history = text ? [...messages, { role: 'user' as const, content: text }] : messages;
    const res = await turn({
      id: agent.id,
      input: { messages: history.map(({ role, content }) => ({ role, content })), dynamicVariables: variables.filter((v) => v.name), state },
    });
    if (!res.data) return;
    const { reply, toolCalls, state: next, endReason, error } = res.data.testAgentTurn;
    // An agent that waits for the callee says nothing: no turn to show.
    const said = reply !== '' || toolCalls.length > 0 || endReason;
    setMessages([...history, ...(said ? [{ role: 'agent' as const, content: reply, toolCalls, endReason, error }] : [])]);
    setState(next ?? null);
    form.reset();
  }

  return (
    <section className="card" aria-labelledby="playground">
      <h2 id="playground">Playground</h2>
      <fieldset>
        <legend>Dynamic variables</legend>
        {variables.map((v, i) => (
          <div className="row" key={i}>
            <label>
              Name <input value={v.name} onChange={(e) => setVariables((all) => all.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))} />
            </label>
            <label>
              Value <input value={v.value} onChange={(e) => setVariables((all) => all.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))} />
            </label>
          </div>
        ))}
        <button type="button" className="link" onClick={() => setVariables((all) => [...all, { name: '', value: '' }])}>
          Add a variable
        </button>
      </fieldset>
      <ol className="transcript" aria-live="polite" aria-label="Conversation">
        {messages.map((m, i) => (
          <li key={i} className={`turn turn-${m.role}`}>
            <span className="who">{m.role}</span> {m.content}
            {m.toolCalls?.map((call, j) => (
              <code key={j} className="tool-call">
                {call.name}({JSON.stringify(call.arguments)})
              </code>
            ))}
            {m.endReason && (
              <small className="hint">
                The call ends here: {m.endReason}
                {m.error ? ` (${m.error})` : ''}
              </small>
            )}
          </li>
        ))}
      </ol>
      {state && (
        <p>
          State: <strong>{state}</strong>
        </p>
      )}
      <form onSubmit={send} className="row">
        <label className="grow">
          You say <input name="message" autoComplete="off" />
        </label>
        <button type="submit" disabled={result.fetching}>
          {messages.length ? 'Send' : 'Start'}
        </button>
        <button
          type="button"
          className="link"
          onClick={() => {
            setMessages([]);
            setState(null);
          }}
        >
          Restart
        </button>
      </form>
      {errors.map((e) => (
        <p key={e.field} className="error" role="alert">
          {e.field}: {e.message}
        </p>
      ))}
      {errors.length === 0 && <Problem error={result.error} />}
    </section>
  );
}
