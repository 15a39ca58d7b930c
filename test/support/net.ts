import { randomInt } from 'node:crypto';
import net from 'node:net';

/**
 * Ports below the kernels' ephemeral ranges (Linux 32768-60999, macOS 49152-65535), which
 * outgoing connections and `listen(0)` take from: a port found free there stays free until
 * its caller binds it, where one the OS picked could meanwhile become some connection's
 * source port (a spawned service then failed to start with EADDRINUSE).
 */
const FIRST = 20_000;
const LAST = 32_767;

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

/** A TCP port free on 127.0.0.1 right now, for the caller to bind soon after. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = randomInt(FIRST, LAST + 1);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port found between ${FIRST} and ${LAST} in 100 tries`);
}
