import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { PROJECT_ROOT } from '../../../src/project';

/**
 * The Node the README names is the one every dependency supports (docs/testing.md, "Node"),
 * but for GraphQL Code Generator (the console's build), whose current releases need packages
 * declaring Node 22.
 */
const EXCEPTION = /^@graphql-codegen\//;

interface LockedPackage {
  version?: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as { engines: { node: string }; dependencies: Record<string, string>; devDependencies: Record<string, string> };
const locked = (JSON.parse(read('package-lock.json')) as { packages: Record<string, LockedPackage> }).packages;
const node = semver.minVersion(manifest.engines.node)!;

/** The lockfile path `name` resolves to from the package at `from`, as Node's resolution finds it. */
function resolve(from: string, name: string): string | undefined {
  for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (locked[candidate]) return candidate;
    if (!base) return undefined;
  }
}

/** Every lockfile path reachable from the project's own dependencies named in `roots`. */
function reachable(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (from: string, name: string) => {
    const found = resolve(from, name);
    if (!found || seen.has(found)) return;
    seen.add(found);
    const pkg = locked[found];
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(found, dep);
  };
  for (const root of roots) visit('', root);
  return seen;
}

describe('the Node version', () => {
  it('is the one the README names', () => {
    expect(read('README.md')).toContain(`Node ${node.major}.${node.minor} or newer`);
  });

  it('is supported by every installed package but those only GraphQL Code Generator needs', () => {
    const roots = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)].filter((name) => !EXCEPTION.test(name));
    const refusing = [...reachable(roots)]
      .filter((at) => locked[at].engines?.node && !semver.satisfies(node, locked[at].engines!.node!))
      .map((at) => `${at} ${locked[at].version} (node ${locked[at].engines!.node})`);
    expect(refusing).toEqual([]);
  });
});
