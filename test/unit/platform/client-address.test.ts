import { clientAddress } from '../../../src/services/platform/rate-limit.service';

describe('clientAddress (TRUST_PROXY_HOPS)', () => {
  const origin = { forwardedFor: '198.51.100.7, 203.0.113.1 ,203.0.113.2', peer: '10.0.0.9' };

  it('is the peer with no trusted proxy, whatever the header says', () => {
    expect(clientAddress(origin, 0)).toBe('10.0.0.9');
  });

  it('counts back from the peer one entry per trusted proxy', () => {
    expect(clientAddress(origin, 1)).toBe('203.0.113.2');
    expect(clientAddress(origin, 2)).toBe('203.0.113.1');
    expect(clientAddress(origin, 3)).toBe('198.51.100.7');
  });

  it('is the first entry when the request came through fewer proxies than trusted, and skips empty entries', () => {
    expect(clientAddress(origin, 5)).toBe('198.51.100.7');
    expect(clientAddress({ forwardedFor: undefined, peer: '10.0.0.9' }, 2)).toBe('10.0.0.9');
    expect(clientAddress({ forwardedFor: ' , 198.51.100.7,', peer: '10.0.0.9' }, 1)).toBe('198.51.100.7');
    expect(clientAddress({ forwardedFor: undefined, peer: undefined }, 1)).toBe('');
  });
});
