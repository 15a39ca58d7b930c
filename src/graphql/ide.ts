import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';

/** Where the IDE's scripts and styles are served, beside the endpoint itself. */
export const IDE_ASSETS_PATH = '/graphql/ide';

/** Browser builds shipped in the npm packages: nothing is loaded from a CDN. */
const ASSETS: Record<string, { pkg: string; file: string; type: string }> = {
  'react.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'application/javascript' },
  'react-dom.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'application/javascript' },
  'graphiql.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'application/javascript' },
  'graphiql.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css' },
};

/** A file of an installed package; the packages' `exports` maps hide these builds from require. */
const packageFile = (pkg: string, file: string): string => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);

const page = (endpoint: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Switchboard GraphQL</title>
  <link rel="stylesheet" href="${IDE_ASSETS_PATH}/graphiql.css">
  <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
  <div id="graphiql">Loading…</div>
  <script src="${IDE_ASSETS_PATH}/react.js"></script>
  <script src="${IDE_ASSETS_PATH}/react-dom.js"></script>
  <script src="${IDE_ASSETS_PATH}/graphiql.js"></script>
  <script>
    const fetcher = GraphiQL.createFetcher({ url: ${JSON.stringify(endpoint)} });
    ReactDOM.createRoot(document.getElementById('graphiql')).render(
      React.createElement(GraphiQL, {
        fetcher,
        defaultEditorToolsVisibility: 'headers',
        defaultHeaders: JSON.stringify({ Authorization: 'Bearer sk_your_api_key' }, null, 2),
      }),
    );
  </script>
</body>
</html>
`;

/**
 * GraphiQL for browsers at GET /graphql: the page and its four files, read once at start
 * from node_modules and served from memory with a day of caching.
 */
export class GraphiQLPage {
  private readonly html: string;
  private readonly files = new Map<string, { body: Buffer; type: string }>();

  constructor(endpoint: string) {
    this.html = page(endpoint);
    for (const [name, { pkg, file, type }] of Object.entries(ASSETS)) {
      this.files.set(name, { body: readFileSync(packageFile(pkg, file)), type });
    }
  }

  /** True when a browser asks for the page: a GET preferring HTML, with no query to run. */
  wants(ctx: Context): boolean {
    return ctx.method === 'GET' && !ctx.query.query && ctx.accepts('application/json', 'text/html') === 'text/html';
  }

  servePage(ctx: Context): void {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = this.html;
  }

  /** Serves one asset; false when `name` is none of them. */
  serveAsset(ctx: Context, name: string): boolean {
    const file = this.files.get(name);
    if (!file || ctx.method !== 'GET') return false;
    ctx.type = file.type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = file.body;
    return true;
  }
}
