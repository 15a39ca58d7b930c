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
