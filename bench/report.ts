import { readFile, writeFile } from 'node:fs/promises';

/** The p-th percentile of ascending `sorted` (nearest rank); NaN when empty. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** One line of the results table: a figure, what it is compared with, and the aim if any. */
export interface Row {
  figure: string;
  measured: string;
  anchor: string;
  aim?: { text: string; met: boolean };
}

export interface Run {
  date: string;
  machine: string;
  load: string;
  database: string;
  rows: Row[];
  notes: string[];
}

const START = '<!-- bench:results:start (written by npm run bench) -->';
const END = '<!-- bench:results:end -->';

export function markdown(run: Run): string {
  const lines = [
    `Run of ${run.date} on ${run.machine}; ${run.database}.`,
    `Load average (1, 5, 15 min) ${run.load}.`,
    '',
    '| Figure | Measured | Anchor (same run) | Aim | |',
    '|---|---|---|---|---|',
    ...run.rows.map((r) => `| ${r.figure} | ${r.measured} | ${r.anchor} | ${r.aim?.text ?? ''} | ${r.aim ? (r.aim.met ? 'met' : '**not met**') : ''} |`),
  ];
  if (run.notes.length > 0) lines.push('', ...run.notes.map((n) => `- ${n}`));
  return lines.join('\n');
}

/** The table for a terminal: columns padded, aims marked. */
export function text(run: Run): string {
  const cells = run.rows.map((r) => [r.figure, r.measured, r.anchor, r.aim ? `${r.aim.text}: ${r.aim.met ? 'met' : 'NOT MET'}` : '']);
  const header = ['Figure', 'Measured', 'Anchor (same run)', 'Aim'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [`${run.date}, ${run.machine}, ${run.database}, load average ${run.load}`, line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line), ...run.notes.map((n) => `* ${n}`)].join(
    '\n',
  );
}

/** The markers of `npm run bench`'s results block in docs/performance.md. */
export const RESULTS_BLOCK = { start: START, end: END };

/** Replaces the text of `file` between `block`'s markers with `body`, keeping the prose around it. */
export async function writeBlock(file: string, block: { start: string; end: string }, body: string): Promise<void> {
  const doc = await readFile(file, 'utf8');
  const start = doc.indexOf(block.start);
  const end = doc.indexOf(block.end);
  if (start < 0 || end < start) throw new Error(`${file} has no markers ${block.start} ... ${block.end}`);
  await writeFile(file, `${doc.slice(0, start + block.start.length)}\n${body}\n${doc.slice(end)}`);
}

/** Replaces the results block of `file` (between its markers), keeping the prose around it. */
export const writeResults = (file: string, run: Run, block = RESULTS_BLOCK): Promise<void> => writeBlock(file, block, markdown(run));
