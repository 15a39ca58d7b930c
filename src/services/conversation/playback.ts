/**
 * The agent's voice as the callee hears it (docs/calls.md, "Playback"): when it stops, by
 * estimate, and what of the agent's turns was played, as the transport reports it.
 */

/** Characters spoken a second at `voice_speed` 50: about 170 words a minute. */
const CHARS_PER_SECOND = 15;
/** Time the voice takes to start once text arrives. */
const START_MS = 500;

/** Characters a second at an agent's `voice_speed` (0-100): from half (0) to one and a half times (100) the rate at 50. */
export const speechRate = (voiceSpeed = 50): number => CHARS_PER_SECOND * (0.5 + voiceSpeed / 100);

/** How long `text` takes to be spoken, estimated, at `voiceSpeed`. */
export const speakingMs = (text: string, voiceSpeed = 50): number => START_MS + Math.ceil((text.length / speechRate(voiceSpeed)) * 1000);

/**
 * When the agent's voice stops, by estimate: text sent while it speaks is queued after what it
 * is saying; text sent while it is silent starts a new line after START_MS.
 */
export class PlaybackEstimate {
  private until = 0;

  constructor(
    private readonly voiceSpeed: number,
    private readonly now: () => number,
  ) {}

  sent(text: string): void {
    if (text === '') return;
    const now = this.now();
    this.until = (this.until > now ? this.until : now + START_MS) + speakingMs(text, this.voiceSpeed) - START_MS;
  }

  /** When the voice stops: now, when nothing is playing. */
  end(): number {
    return Math.max(this.until, this.now());
  }
}

/** Whitespace left out: the transport may play (and report) a text with its spaces moved. */
const squeezed = (text: string): string => text.replace(/\s+/g, '');

/** The prefix of `text` holding its first `chars` characters that are not whitespace. */
function prefixOf(text: string, chars: number): string {
  let seen = 0;
  let i = 0;
  for (; i < text.length && seen < chars; i++) if (!/\s/.test(text[i])) seen++;
  return text.slice(0, i);
}

/**
 * What the callee heard of the agent's latest turns, from the transport's `tokensPlayed`
 * reports (each the piece of text just played). Reports count from the callee's last input:
 * everything the agent said before it was heard, or cut by an interruption.
 */
export class PlayedText {
  /** Whether the transport reports playback at all (any report in the session). */
  private reporting = false;
  private pieces: string[] = [];

  played(text: string): void {
    this.reporting = true;
    const piece = squeezed(text);
    if (piece !== '') this.pieces.push(piece);
  }

  /** The callee spoke: what the agent said before was played, as far as it was. */
  calleeSpoke(): void {
    this.pieces = [];
  }

  /**
   * What was heard of each of `turns` (the agent's turns since the callee's last input, in
   * order): each piece is found in the turn being played or a later one (a turn cut short,
   * a voicemail message that preempted a greeting); a piece holding the whole turn so far counts
   * too (reports that repeat what came before). Null when nothing tells: the transport does
   * not report playback, or none of its reports is text of these turns.
   */
  heard(turns: readonly string[]): string[] | null {
    if (!this.reporting) return null;
    const texts = turns.map(squeezed);
    const reach = texts.map(() => 0);
    let current = 0;
    let matched = this.pieces.length === 0;
    for (const piece of this.pieces) {
      for (let i = current; i < texts.length; i++) {
        const text = texts[i];
        const at = text.indexOf(piece, i === current ? reach[i] : 0);
        const end = at >= 0 ? at + piece.length : text.startsWith(piece) ? piece.length : -1;
        if (end <= reach[i]) continue;
        reach[i] = end;
        current = i;
        matched = true;
        break;
      }
    }
    return matched ? turns.map((turn, i) => prefixOf(turn, reach[i]).trimEnd()) : null;
  }
}
