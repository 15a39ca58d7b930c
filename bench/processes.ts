import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** A child process of the benchmark (the service, the bare baseline) and what it costs. */
export interface Measured {
  url: string;
  pid: number;
  /** CPU milliseconds (user + system) the process has used so far. */
  cpuMs(): Promise<number>;
  /** Peak resident set size so far, in MiB (the kernel's high-water mark, VmHWM). */
  peakRssMiB(): Promise<number>;
  /** Lines the process wrote to stderr (start-up failures, warnings). */
  errors(): string;
  /** SIGTERM, then waits for the exit (and so for a CPU profile to be written). */
  stop(): Promise<void>;
}

const CLOCK_TICKS_PER_S = 100;

async function cpuMsOf(pid: number): Promise<number> {
  // /proc/<pid>/stat: fields 14 and 15 are utime and stime in clock ticks (after the "(comm)").
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

async function peakRssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]);
  return kb / 1024;
}

/** Waits until `url` answers any HTTP status, or the process exits, or 60 s pass. */
async function waitUntilServing(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${path.basename(String(child.spawnargs.at(-1)))} exited at start-up:\n${stderr()}`);
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} not serving after 60 s:\n${stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Starts `node [nodeArgs] script` with `env` (plus PATH), listening on `port`, and resolves
 * once it answers HTTP on 127.0.0.1.
 */
export async function startProcess(script: string, port: number, env: Record<string, string>, nodeArgs: string[] = []): Promise<Measured> {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(url, child, () => stderr);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    cpuMs: () => cpuMsOf(pid),
    peakRssMiB: () => peakRssOf(pid),
    errors: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
