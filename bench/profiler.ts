import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { topSelfTime } from './cpu-profile';

/**
 * A CPU profile of this process over one phase of a benchmark, through node:inspector, when
 * BENCH_CPU_PROF=1: written to `<dir>/<name>.cpuprofile`, its top self-time functions logged.
 */
export async function profilePhase<T>(dir: string, name: string, phase: () => Promise<T>, log: (line: string) => void): Promise<T> {
  if (process.env.BENCH_CPU_PROF !== '1') return phase();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await phase();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const file = path.join(dir, `${name}.cpuprofile`);
    await mkdir(dir, { recursive: true });
    await writeFile(file, JSON.stringify(profile));
    log(`CPU profile of ${name}: ${file}`);
    for (const { name: fn, share } of topSelfTime(file, 12)) log(`  ${(100 * share).toFixed(1).padStart(5)}%  ${fn}`);
  }
}
