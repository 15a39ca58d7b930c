import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { graphqlSchema, printSDL } from '../../../src/graphql/schema';
import { PROJECT_ROOT } from '../../../src/project';

const run = promisify(execFile);

/** graphql-schema-linter with the rule set of `.graphql-schema-linterrc` (docs/graphql.md), on `file`. */
async function lint(file: string): Promise<{ rule: string; message: string }[]> {
  const bin = path.join(PROJECT_ROOT, 'node_modules/.bin/graphql-schema-linter');
  let stdout: string;
  try {
    ({ stdout } = await run(bin, ['--format', 'json', file], { cwd: PROJECT_ROOT }));
  } catch (err) {
    // It exits non-zero when it finds problems; its report is on stdout all the same.
    stdout = (err as { stdout?: string }).stdout ?? '';
    if (!stdout) throw err;
  }
  return (JSON.parse(stdout) as { errors: { rule: string; message: string }[] }).errors;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'schema-lint-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the GraphQL schema under graphql-schema-linter', () => {
  it('is clean: every type, field, argument, input field and enum value described; Relay connections and PageInfo to spec', async () => {
    const file = path.join(dir, 'schema.graphql');
    await writeFile(file, printSDL(graphqlSchema()));
    expect((await lint(file)).map((e) => `${e.rule}: ${e.message}`)).toEqual([]);
  }, 30_000);

  it('runs the rule set that catches what the review found', async () => {
    const file = path.join(dir, 'bad.graphql');
    await writeFile(file, 'type Query { page: ThingConnection }\ntype ThingConnection { edges: [String] }\n');
    const rules = new Set((await lint(file)).map((e) => e.rule));
    expect([...rules].sort()).toEqual(
      expect.arrayContaining(['fields-have-descriptions', 'relay-connection-arguments-spec', 'relay-connection-types-spec', 'relay-page-info-spec', 'types-have-descriptions']),
    );
  }, 30_000);
});
