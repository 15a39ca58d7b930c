import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, SERVICE_NODE_FLAGS } from '../../../src/project';

const nginx = readFileSync(path.join(PROJECT_ROOT, 'deploy/nginx.conf'), 'utf8');

/** The case-insensitive regex locations of the shipped nginx (`location ~* <regex> { ... }`), with their blocks. */
const regexLocations = [...nginx.matchAll(/location ~\*\s+(\S+)\s*\{(.*?)\n\s*\}/gs)].map(([, pattern, block]) => ({ pattern: new RegExp(pattern, 'i'), block: block }));

describe('deploy/nginx.conf', () => {
  it('does not route /metrics to the replicas: it answers the 404 envelope itself, in any case, with or without a trailing slash', () => {
    for (const path of ['/metrics', '/METRICS', '/Metrics/', '/metrics/x']) {
      const location = regexLocations.find((l) => l.pattern.test(path));
      expect(location?.block).toContain(`return 404 '{"status":"error","message":"Not found","data":""}';`);
      expect(location?.block).not.toContain('proxy_pass');
    }
    expect(regexLocations.filter((l) => ['/metricsx', '/v1/metrics', '/graphql'].some((p) => l.pattern.test(p)))).toEqual([]);
  });

  it("replaces the client's X-Forwarded-For with the peer's address: the per-address limits key on its first entry", () => {
    const forwarded = [...nginx.matchAll(/proxy_set_header\s+X-Forwarded-For\s+(\S+);/gi)].map(([, value]) => value);
    expect(forwarded.length).toBeGreaterThan(0);
    expect(new Set(forwarded)).toEqual(new Set(['$remote_addr']));
  });
});

describe('the Node flags the service is deployed with', () => {
  it('are given by the Dockerfile, npm start and bench:conversations (whose service runs in its own process) alike', () => {
    const dockerfile = readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
    const { scripts } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const flags = SERVICE_NODE_FLAGS.join(' ');
    expect(dockerfile).toContain(`CMD ["node", ${SERVICE_NODE_FLAGS.map((f) => JSON.stringify(f)).join(', ')}, "dist/src/main.js"]`);
    expect(scripts.start).toMatch(new RegExp(`&& node ${flags} dist/src/main\\.js$`));
    expect(scripts['bench:conversations']).toMatch(new RegExp(`&& node --expose-gc ${flags} dist/bench/conversations\\.js$`));
  });
});
