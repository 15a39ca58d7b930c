import type { RecordingMedia } from './telephony';

const SAMPLE_RATE = 8000;

/**
 * A WAV file of `seconds` of silence: a RIFF header for 8 kHz, 16-bit, mono PCM, then zeros.
 * The simulated provider's recordings (docs/calls.md, "Recording").
 */
export function silentWav(seconds: number): Buffer {
  const dataBytes = Math.max(0, Math.round(seconds * SAMPLE_RATE)) * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // channels
  wav.writeUInt32LE(SAMPLE_RATE, 24);
  wav.writeUInt32LE(SAMPLE_RATE * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  return wav;
}

/**
 * `body` served for a `Range` header as RFC 9110 says, for one range of bytes (`bytes=0-99`,
 * `bytes=100-`, `bytes=-100`): 206 with that part; 416 when it starts past the end; the whole
 * body (200) without a range, or with one this does not read (several ranges, other units).
 */
export function rangeOf(body: Buffer, type: string, range: string | undefined): RecordingMedia {
  const size = body.length;
  const whole: RecordingMedia = { status: 200, type, length: String(size), range: undefined, body };
  const match = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return whole;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return { status: 416, type, length: '0', range: `bytes */${size}`, body: Buffer.alloc(0) };
  return { status: 206, type, length: String(end - start + 1), range: `bytes ${start}-${end}/${size}`, body: body.subarray(start, end + 1) };
}
