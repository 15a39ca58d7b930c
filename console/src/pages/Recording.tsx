import { useContext, useEffect, useRef, useState } from 'react';
import { Authorization } from '../client';

type Audio = { state: 'idle' | 'loading' } | { state: 'ready'; url: string } | { state: 'failed'; message: string };

/**
 * A call's recording, fetched on demand with the signed-in key (an audio element cannot send an
 * Authorization header) into a `blob:` URL, released when the page goes. The path is this
 * origin's, whatever PUBLIC_BASE_URL the call's `recordUrl` names (the page may only connect to
 * its own origin).
 */
function useRecording(callId: string): [Audio, () => Promise<void>] {
  const authorization = useContext(Authorization);
  const [audio, setAudio] = useState<Audio>({ state: 'idle' });
  const loading = useRef<AbortController | null>(null);
  useEffect(() => () => loading.current?.abort(), []);
  useEffect(
    () => () => {
      if (audio.state === 'ready') URL.revokeObjectURL(audio.url);
    },
    [audio],
  );
  async function load() {
    const controller = new AbortController();
    loading.current = controller;
    setAudio({ state: 'loading' });
    try {
      const res = await fetch(`/v1/calls/${encodeURIComponent(callId)}/recording`, { headers: { authorization }, signal: controller.signal });
      if (!res.ok) {
        setAudio({ state: 'failed', message: `The recording could not be read (HTTP ${res.status}).` });
        return;
      }
      const blob = await res.blob();
      if (!controller.signal.aborted) setAudio({ state: 'ready', url: URL.createObjectURL(blob) });
    } catch {
      if (!controller.signal.aborted) setAudio({ state: 'failed', message: 'The service did not answer: try again.' });
    }
  }
  return [audio, load];
}

/** A button that loads the call's recording, then a player (which takes the focus) and a download link. */
export function RecordingPlayer({ callId }: { callId: string }) {
  const [audio, load] = useRecording(callId);
  const player = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    if (audio.state === 'ready') player.current?.focus();
  }, [audio.state]);
  if (audio.state === 'ready') {
    return (
      <div className="recording">
        <audio ref={player} controls src={audio.url} tabIndex={-1} aria-label="Recording of the call" />
        <a href={audio.url} download={`call-${callId}.wav`}>
          Download (WAV)
        </a>
      </div>
    );
  }
  const busy = audio.state === 'loading';
  return (
    <div className="recording">
      <button type="button" onClick={load} disabled={busy} aria-busy={busy}>
        {busy ? 'Loading the recording…' : 'Load the recording'}
      </button>
      {audio.state === 'failed' && (
        <p className="error" role="alert">
          {audio.message}
        </p>
      )}
    </div>
  );
}
