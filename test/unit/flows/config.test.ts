import { ConfigError, loadConfig } from '../../../src/config';

describe('flow settings', () => {
  it('default to a closed guard and a one-second poll', () => {
    expect(loadConfig({})).toMatchObject({ jobPollMs: 1000, webhooks: { allowPrivate: false, allowedHosts: [], retryBackoffMs: 1000 } });
  });

  it('read the allow-list as trimmed, lower-case entries', () => {
    const config = loadConfig({ WEBHOOK_ALLOWED_HOSTS: ' Hooks.Internal, 10.0.0.0/8 ,,127.0.0.1', WEBHOOK_ALLOW_PRIVATE: 'true', JOB_POLL_MS: '50' });
    expect(config).toMatchObject({ jobPollMs: 50, webhooks: { allowPrivate: true, allowedHosts: ['hooks.internal', '10.0.0.0/8', '127.0.0.1'] } });
  });

  it('name each bad variable', () => {
    expect(() => loadConfig({ JOB_POLL_MS: 'soon', WEBHOOK_ALLOW_PRIVATE: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ JOB_POLL_MS: 'soon', WEBHOOK_ALLOW_PRIVATE: 'maybe' })).toThrow(/JOB_POLL_MS.*WEBHOOK_ALLOW_PRIVATE/);
  });
});

describe('job recovery settings', () => {
  it("by default bring a killed worker's flow step back within its timeout plus a minute (docs/flows.md)", () => {
    const { jobRecovery } = loadConfig({});
    expect(jobRecovery).toEqual({ expiryS: 30, maintenanceS: 10 });
    // Expiry, two maintenance intervals at worst, pg-boss's retry pause of at most 2 s.
    expect(jobRecovery.expiryS + 2 * jobRecovery.maintenanceS + 2).toBeLessThanOrEqual(60);
  });

  it('name a bad value', () => {
    expect(() => loadConfig({ JOB_EXPIRY_S: '0' })).toThrow(/JOB_EXPIRY_S/);
    expect(() => loadConfig({ JOB_MAINTENANCE_S: 'often' })).toThrow(/JOB_MAINTENANCE_S/);
  });
});
