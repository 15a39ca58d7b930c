import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { PROJECT_ROOT } from '../../../src/project';

interface LockedPackage {
  version?: string;
  engines?: { node?: string };
}

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as { engines: { node: string } };
const locked = (JSON.parse(read('package-lock.json')) as { packages: Record<string, LockedPackage> }).packages;
const node = semver.minVersion(manifest.engines.node)!;

/** The Node the README names is the one every dependency supports (docs/testing.md, "Node"). */
describe('the Node version', () => {
  it('is the one the README names', () => {
    expect(read('README.md')).toContain(`Node ${node.major}.${node.minor} or newer`);
  });

  it('is supported by every package the lockfile installs, so `npm ci` warns of no engine', () => {
    const refusing = Object.entries(locked)
      .filter(([at, pkg]) => at && pkg.engines?.node && !semver.satisfies(node, pkg.engines.node))
      .map(([at, pkg]) => `${at} ${pkg.version} (node ${pkg.engines!.node})`);
    expect(refusing).toEqual([]);
  });
});
