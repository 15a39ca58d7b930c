import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's folder: the nearest one above `from` holding package.json (the same whether
 * the code runs from its sources or compiled under dist/).
 */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The project's folder, from this module's. */
export const PROJECT_ROOT = projectRoot(__dirname);

/**
 * The Node flags the service is deployed with: the Dockerfile's CMD and `npm start` give them
 * (test/unit/project/deploy.test.ts holds them to this), and the benchmarks start the service
 * with them. A young generation of 64 MiB semi-spaces: docs/operations.md, "The young
 * generation".
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=64'];
