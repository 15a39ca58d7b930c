/**
 * Summarises a `.cpuprofile` (`node --cpu-prof`): the functions with the most self time,
 * each with its share of the samples, for docs/performance.md.
 *   node dist/bench/cpu-profile.js <file.cpuprofile> [top=20]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface SelfTime {
  name: string;
  share: number;
}

/** The `top` functions by self time (share of all samples, idle excluded). */
export function topSelfTime(file: string, top = 20): SelfTime[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const byName = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || hits === 0) continue;
    total += hits;
    const where = url ? ` ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, '')}:${lineNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'}${where}`;
    byName.set(name, (byName.get(name) ?? 0) + hits);
  }
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, hits]) => ({ name, share: hits / total }));
}

/** Logs the top self-time functions of the newest profile `node --cpu-prof` wrote into `dir` (a service's, once it has exited). */
export function logNewestProfile(dir: string, log: (line: string) => void): void {
  const newest = readdirSync(dir)
    .filter((f) => f.startsWith('CPU.') && f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!newest) return;
  log(`CPU profile of the service (whole run): ${newest}`);
  for (const { name, share } of topSelfTime(newest, 15)) log(`  ${(100 * share).toFixed(1).padStart(5)}%  ${name}`);
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) throw new Error('usage: node dist/bench/cpu-profile.js <file.cpuprofile> [top]');
  process.stdout.write(`${path.basename(file)}\n`);
  for (const { name, share } of topSelfTime(file, Number(top ?? 20))) process.stdout.write(`${(100 * share).toFixed(1).padStart(5)}%  ${name}\n`);
}
