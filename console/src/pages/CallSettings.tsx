import { FieldMessage } from '../components';
import type { FieldError } from '../errors';
import type { AgentFieldsFragment } from '../gql/graphql';

type Agent = AgentFieldsFragment;

/** Settings chosen from a list: the API's field name (its errors name it too), the label, and each value's text. */
const CHOICES = [
  {
    key: 'voicemailAction',
    text: 'When an answering machine answers',
    options: { HANGUP: 'Hang up', LEAVE_MESSAGE: 'Leave a message', CONTINUE: 'Talk on as with a person' },
  },
  {
    key: 'callRecording',
    text: 'Recording',
    options: { OFF: 'Off', MONO: 'Mono (both parties on one channel)', DUAL: 'Dual (one channel per party)' },
  },
  {
    key: 'transferMode',
    text: 'Transfers',
    options: { COLD: 'Cold (dialled at once)', WARM: 'Warm (the person hears a summary; nobody answering, the agent comes back)' },
  },
] as const;

/** Settings written as text, with what they do (docs/agents.md). */
const TEXTS = [
  {
    key: 'voicemailMessage',
    text: 'Voicemail message',
    hint: 'Said on an answering machine under "Leave a message", then the call ends; {{variables}} are filled as in the prompt. Empty: no message.',
  },
  {
    key: 'openingDisclosure',
    text: 'Opening disclosure',
    hint: 'Said first on every call, not interruptible (e.g. "This call is recorded."). Empty: none.',
  },
  {
    key: 'welcomeGreeting',
    text: 'Welcome greeting',
    hint: "The agent's first words when it talks first, said without asking the model; {{variables}} are filled as in the prompt. Empty: the model greets.",
    /** Saved as null when left empty (the API's "none"). */
    nullable: true,
  },
  {
    key: 'holdAudioUrl',
    text: 'Hold audio URL',
    hint: 'An https URL of audio played to the caller while a warm transfer is prepared. Empty: none.',
    nullable: true,
  },
] as const;

/** The call settings' keys, as `updateAiAgent` names them. */
export const CALL_SETTING_KEYS = [...CHOICES.map((c) => c.key), ...TEXTS.map((t) => t.key)];

/** The call settings of the submitted form, as `updateAiAgent` takes them. */
export const callSettingsInput = (form: FormData) =>
  Object.fromEntries(
    [...CHOICES, ...TEXTS].map((s) => {
      const value = String(form.get(s.key));
      return [s.key, 'nullable' in s && value.trim() === '' ? null : value];
    }),
  );

/** The fields of the agent's call settings (answering machines, recording, transfers, disclosure, greeting, hold audio), each with its field errors. */
export function CallSettings({ agent, errors }: { agent: Agent; errors: FieldError[] }) {
  return (
    <fieldset>
      <legend>Answering machines, recording and transfers</legend>
      {CHOICES.map((c) => (
        <div key={c.key} className="field">
          <label>
            {c.text}
            <select name={c.key} defaultValue={agent[c.key]}>
              {Object.entries(c.options).map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </label>
          <FieldMessage errors={errors} field={c.key} />
        </div>
      ))}
      {TEXTS.map((t) => (
        <div key={t.key} className="field">
          <label>
            {t.text} <textarea name={t.key} rows={2} defaultValue={agent[t.key] ?? ''} aria-describedby={`${t.key}-hint`} />
          </label>
          <small id={`${t.key}-hint`} className="hint">
            {t.hint}
          </small>
          <FieldMessage errors={errors} field={t.key} />
        </div>
      ))}
    </fieldset>
  );
}
