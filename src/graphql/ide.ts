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

/**
 * Asks for the credential before GraphiQL starts, so that its one schema load is
 * authenticated: from the page's fragment (`/graphql#key=sk_...`, never sent to a server and
 * cleared from the address bar at once) or from the form. One `{ __typename }` tells a
 * refused key (401) before GraphiQL loads; the key then travels in the fetcher's headers,
 * not in the Headers tab, and lives only in this page's memory.
 */
const INIT_SCRIPT = `(function () {
  var endpoint = document.currentScript.dataset.endpoint;
  var form = document.getElementById('key-form');
  var input = document.getElementById('key');
  var problem = document.getElementById('key-problem');

  function keyFromFragment() {
    var key = new URLSearchParams(location.hash.slice(1)).get('key');
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    return key ? key.trim() : '';
  }

  function ask(message) {
    problem.textContent = message;
    form.hidden = false;
    input.focus();
  }

  function open(key) {
    form.hidden = true;
    var fetcher = GraphiQL.createFetcher({ url: endpoint, headers: { Authorization: 'Bearer ' + key } });
    ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, { fetcher: fetcher }));
  }

  function tryKey(key) {
    form.hidden = true;
    fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + key },
      body: JSON.stringify({ query: '{ __typename }' }),
    }).then(
      function (res) {
        if (res.status === 401) ask('This key was refused: check it and try again.');
        else open(key);
      },
      function () { ask('The service did not answer: try again.'); },
    );
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var key = input.value.trim();
    if (key) tryKey(key);
  });
  var key = keyFromFragment();
  if (key) tryKey(key);
  else ask('');
})();
`;

const page = (endpoint: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Switchboard GraphQL</title>
  <link rel="stylesheet" href="${IDE_ASSETS_PATH}/graphiql.css">
  <link rel="stylesheet" href="${IDE_ASSETS_PATH}/page.css">
</head>
<body>
  <form id="key-form" hidden>
    <label for="key">API key (<code>sk_...</code>) or JWT</label>
    <input id="key" name="key" type="password" autocomplete="off" required>
    <button type="submit">Open GraphiQL</button>
    <p id="key-problem" role="alert"></p>
  </form>
  <div id="graphiql"></div>
  <script src="${IDE_ASSETS_PATH}/react.js"></script>
  <script src="${IDE_ASSETS_PATH}/react-dom.js"></script>
  <script src="${IDE_ASSETS_PATH}/graphiql.js"></script>
  <script src="${IDE_ASSETS_PATH}/init.js" data-endpoint="${endpoint}"></script>
</body>
</html>
`;

const PAGE_CSS = `html, body, #graphiql { height: 100%; margin: 0; }
#key-form { max-width: 28rem; margin: 4rem auto; font-family: system-ui, sans-serif; display: grid; gap: 0.5rem; }
#key-form[hidden] { display: none; }
`;

/** The page's own files: scripts and styles from this origin only, as its policy demands. */
const OWN_FILES: Record<string, { body: string; type: string }> = {
  'init.js': { body: INIT_SCRIPT, type: 'application/javascript' },
  'page.css': { body: PAGE_CSS, type: 'text/css' },
};

/** No inline script, nothing from elsewhere; GraphiQL sets inline styles. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; form-action 'none'; base-uri 'none'";

/**
 * GraphiQL for browsers at GET /graphql: the page and its files, read once at start
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
    for (const [name, { body, type }] of Object.entries(OWN_FILES)) this.files.set(name, { body: Buffer.from(body), type });
  }

  /** True when a browser asks for the page: a GET preferring HTML, with no query to run. */
  wants(ctx: Context): boolean {
    return ctx.method === 'GET' && !ctx.query.query && ctx.accepts('application/json', 'text/html') === 'text/html';
  }

  servePage(ctx: Context): void {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
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
