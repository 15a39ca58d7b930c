/**
 * Time limits for the suite's tests and hooks, which jest-light-runner (test/support/runner.mjs)
 * does not enforce: each gets jest's usual 30 s, or the limit its declaration passes as last
 * argument, and fails with a message when it runs past it. Loaded once per worker, after the
 * runner has defined jest's globals, which it wraps. Stack traces show the TypeScript sources.
 */
const DEFAULT_LIMIT_MS = 30_000;

process.setSourceMapsEnabled(true);

/** `fn` (a test or a hook, possibly taking jest's `done` callback) failing past `limitMs`. */
function limited(fn, limitMs = DEFAULT_LIMIT_MS) {
  return (...args) => {
    const run = fn.length > args.length ? new Promise((resolve, reject) => fn(...args, (err) => (err ? reject(err) : resolve()))) : Promise.resolve().then(() => fn(...args));
    let timer;
    const expired = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Exceeded the time limit of ${limitMs} ms (pass another as the last argument of the test or hook).`)), limitMs);
    });
    return Promise.race([run, expired]).finally(() => clearTimeout(timer));
  };
}

/** jest's `test`/`it` with its `.only`, `.skip`, `.todo` and `.each`, each test limited. */
function limitedTest(original) {
  const wrap = (declare) => (name, fn, limitMs) => declare(name, fn && limited(fn, limitMs));
  return Object.assign(wrap(original), original, {
    only: wrap(original.only),
    each:
      (...table) =>
      (name, fn, limitMs) =>
        original.each(...table)(name, limited(fn, limitMs)),
  });
}

globalThis.test = limitedTest(globalThis.test);
globalThis.it = limitedTest(globalThis.it);
for (const hook of ['beforeAll', 'afterAll', 'beforeEach', 'afterEach']) {
  const original = globalThis[hook];
  globalThis[hook] = (fn, limitMs) => original(limited(fn, limitMs));
}
