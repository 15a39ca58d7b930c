// Builds the web console when its sources changed: GraphQL types generated from schema.graphql
// and the graphql(`...`) documents in src (GraphQL Code Generator's client preset through its
// programmatic API, @graphql-codegen/core; its CLI needs Node 22), into src/gql, then the Vite
// bundle into dist/console. Each output keeps a hash of its inputs; equal hashes skip the work, so
// `npm start` and the test set-up pay nothing when nothing changed.
//   node console/build.mjs          types and bundle
//   node console/build.mjs types    types only (what the typecheck needs)
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const here = import.meta.dirname;
const root = path.join(here, '..');
const gqlDir = path.join(here, 'src', 'gql');
const outDir = path.join(root, 'dist', 'console');
const STAMP = '.inputs-hash';

/** Every file under `dir` (recursively), generated types excluded. */
async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !file.startsWith(gqlDir + path.sep));
}

async function hashOf(files) {
  const hash = createHash('sha256');
  for (const file of [...files].sort())
    hash
      .update(path.relative(root, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  return hash.digest('hex');
}

const stampOf = (dir) => readFile(path.join(dir, STAMP), 'utf8').catch(() => '');

/** Runs `work` unless `dir` was made from inputs hashing to the same value. */
async function whenStale(dir, inputs, work) {
  const hash = await hashOf(inputs);
  if ((await stampOf(dir)) === hash) return;
  await work();
  await writeFile(path.join(dir, STAMP), hash);
}

const sources = await filesUnder(path.join(here, 'src'));
const schema = path.join(root, 'schema.graphql');

await whenStale(gqlDir, [...sources, schema, path.join(here, 'build.mjs')], async () => {
  const [{ codegen }, { preset }, { gqlPluckFromCodeStringSync }, { buildSchema, lexicographicSortSchema, parse, printSchema }] = await Promise.all([
    import('@graphql-codegen/core'),
    import('@graphql-codegen/client-preset'),
    import('@graphql-tools/graphql-tag-pluck'),
    import('graphql'),
  ]);
  const schemaAst = lexicographicSortSchema(buildSchema(await readFile(schema, 'utf8')));
  const documents = [];
  for (const file of sources.filter((f) => /\.tsx?$/.test(f)).sort()) {
    for (const source of gqlPluckFromCodeStringSync(file, await readFile(file, 'utf8'), { skipIndent: true })) {
      documents.push({ location: file, document: parse(source), rawSDL: source.body });
    }
  }
  const outputs = await preset.buildGeneratesSection({
    baseOutputDir: gqlDir + path.sep,
    presetConfig: { fragmentMasking: false },
    plugins: [],
    pluginMap: {},
    schema: parse(printSchema(schemaAst)),
    schemaAst,
    documents,
    documentTransforms: [],
    config: {
      useTypeImports: true,
      enumsAsTypes: true,
      scalars: { DateTimeISO: 'string', LocalDate: 'string', JSON: 'unknown', JSONObject: 'Record<string, unknown>' },
    },
  });
  await mkdir(gqlDir, { recursive: true });
  for (const output of outputs) await writeFile(output.filename, await codegen(output));
});

if (process.argv[2] !== 'types') {
  const inputs = [...sources, ...(await filesUnder(gqlDir)), path.join(here, 'index.html'), path.join(here, 'vite.config.mts'), path.join(root, 'package-lock.json')];
  await whenStale(outDir, inputs, async () => {
    const { build } = await import('vite');
    await build({ configFile: path.join(here, 'vite.config.mts'), logLevel: 'warn' });
  });
}
