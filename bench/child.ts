import { fork } from 'node:child_process';

/** A benchmark's child process, spoken to one command at a time. */
export interface Child<Ready> {
  /** The child's first message, sent once it is ready. */
  ready: Ready;
  /** Sends `command`; answers the child's next message. */
  ask<T>(command: object): Promise<T>;
}

/**
 * Forks `file` with `role` as its argument: the part of a benchmark that must not share the
 * measured service's event loop (the load generator, a receiver), on IPC. A child that exits
 * before it answers fails the benchmark.
 */
export async function forkChild<Ready>(file: string, role: string): Promise<Child<Ready>> {
  const child = fork(file, [role]);
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`benchmark child ${role} exited (${code}) before it answered`));
      child.once('exit', exited);
      child.once('message', (message) => {
        child.off('exit', exited);
        resolve(message as T);
      });
    });
  const ready = await next<Ready>();
  return {
    ready,
    ask: <T>(command: object) => {
      const answer = next<T>();
      child.send(command);
      return answer;
    },
  };
}
