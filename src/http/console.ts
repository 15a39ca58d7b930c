import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import type { Logger } from '../logger';
import { PROJECT_ROOT } from '../project';
import { failure } from '../rest/envelope';
import { CONTENT_SECURITY_POLICY } from '../rest/api-reference';

/** Where the web console lives; `/` sends browsers there. */
export const CONSOLE_PATH = '/console/';
const ASSETS_PATH = `${CONSOLE_PATH}assets/`;
/**
 * The policy of /docs, and audio from `blob:` URLs: the call page's recording player plays
 * what it fetched with the caller's key (a media element cannot send an Authorization header).
 */
const CONSOLE_SECURITY_POLICY = `${CONTENT_SECURITY_POLICY}; media-src blob:`;

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

interface Built {
  page: Buffer;
  assets: Map<string, { body: Buffer; type: string }>;
}

/** The console's build (console/build.mjs writes dist/console), read once; null when absent. */
function readBuild(dir: string): Built | null {
  if (!existsSync(path.join(dir, 'index.html'))) return null;
  const assets = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(path.join(dir, 'assets'))) {
    assets.set(name, { body: readFileSync(path.join(dir, 'assets', name)), type: TYPES[path.extname(name)] ?? 'application/octet-stream' });
  }
  return { page: readFileSync(path.join(dir, 'index.html')), assets };
}

/**
 * The web console (docs/console.md) on the service's own port: `/console/` is its one page
 * (never cached, so a new build is picked up at once), `/console/assets/*` its files, whose
 * names carry a hash of their content and so are cached for good. `GET /` redirects there.
 * Files are read into memory at start, like the API reference's. Without a build, the
 * console's paths answer 503 with how to build it; the API is unaffected.
 */
export function consolePages(logger: Logger, dir = path.join(PROJECT_ROOT, 'dist', 'console')): Middleware {
  const built = readBuild(dir);
  if (!built) logger.warn({ dir }, 'web console not built (node console/build.mjs): /console answers 503');
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      await next();
      return;
    }
    if (ctx.path === '/' || ctx.path === '/console') {
      ctx.redirect(CONSOLE_PATH);
      return;
    }
    if (!ctx.path.startsWith(CONSOLE_PATH)) {
      await next();
      return;
    }
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (!built) {
      ctx.status = 503;
      ctx.body = failure('The web console is not built: run npm start, or node console/build.mjs');
      return;
    }
    if (ctx.path === CONSOLE_PATH) {
      ctx.set('Content-Security-Policy', CONSOLE_SECURITY_POLICY);
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = built.page;
      return;
    }
    const asset = ctx.path.startsWith(ASSETS_PATH) ? built.assets.get(ctx.path.slice(ASSETS_PATH.length)) : undefined;
    if (!asset) {
      await next();
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = asset.type;
    ctx.body = asset.body;
  };
}
