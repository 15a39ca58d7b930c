import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context, Middleware, Next } from 'koa';

/** The page, and where its files are served. */
export const API_REFERENCE_PATH = '/docs';
const ASSETS_PATH = `${API_REFERENCE_PATH}/assets`;

/** Swagger UI's browser build, shipped in the swagger-ui-dist package: nothing comes from a CDN. */
const PACKAGE_FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Starts Swagger UI on /openapi.json. A file rather than an inline script, so that the page's
 * policy allows scripts from this origin only.
 */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Switchboard API reference</title>
  <link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png">
  <link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
  <link rel="stylesheet" href="${ASSETS_PATH}/index.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${ASSETS_PATH}/init.js"></script>
</body>
</html>
`;

/**
 * Scripts and styles from this origin only; requests ("Try it out", the console's GraphQL
 * and websockets) to this origin only; images may be data: URLs (Swagger UI's icons). Styles
 * allow inline: Swagger UI sets some. The web console's pages have the same policy, plus
 * audio from blob: URLs (src/http/console.ts).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The Swagger UI package's folder, as its own helper tells (the package ships no types). The
 * helper's module alone: the package's main module also evaluates its 1.4 MB browser bundle,
 * 0.3 s of CPU for each process that starts a service.
 */
const swaggerUiDir = (): string => (require('swagger-ui-dist/absolute-path.js') as () => string)();

/**
 * GET /docs: the API reference (Swagger UI over /openapi.json), its files read once at start
 * from node_modules and served from memory with a day of caching. No authentication: the
 * document holds no secrets; "Try it out" asks for a bearer token.
 */
export function apiReference(): Middleware {
  const dir = swaggerUiDir();
  const files = new Map<string, { body: Buffer | string; type: string }>();
  for (const [name, type] of Object.entries(PACKAGE_FILES)) files.set(name, { body: readFileSync(path.join(dir, name)), type });
  files.set('init.js', { body: INIT_SCRIPT, type: 'application/javascript; charset=utf-8' });
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      await next();
      return;
    }
    if (ctx.path === API_REFERENCE_PATH || ctx.path === `${API_REFERENCE_PATH}/`) {
      ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
      return;
    }
    const file = ctx.path.startsWith(`${ASSETS_PATH}/`) ? files.get(ctx.path.slice(ASSETS_PATH.length + 1)) : undefined;
    if (!file) {
      await next();
      return;
    }
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = file.type;
    ctx.body = file.body;
  };
}
