import { AddressGuard } from '../../src/services/flows/address-guard';

describe('AddressGuard', () => {
  const strict = new AddressGuard({ allowPrivate: false, allowedHosts: [] });

  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.9.9.9', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address (cloud metadata services live there)'],
    ['100.100.100.200', 'a carrier-grade NAT address (some cloud metadata services live there)'],
    ['0.0.0.0', 'the unspecified address'],
    ['::1', 'a loopback address'],
    ['::', 'the unspecified address'],
    ['fe80::1', 'a link-local address (cloud metadata services live there)'],
    ['fd00:ec2::254', 'a unique-local address'],
    ['::ffff:10.0.0.1', 'a private address'],
    ['224.0.0.1', 'a non-public address (multicast)'],
  ])('refuses %s', (address, reason) => {
    expect(strict.refusal(address)).toBe(reason);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'])('accepts the public address %s', (address) => {
    expect(strict.refusal(address)).toBeNull();
  });

  it('opens CIDR ranges of the allow-list, and everything with allowPrivate', () => {
    const ranged = new AddressGuard({ allowPrivate: false, allowedHosts: ['10.0.0.0/8', 'hooks.internal'] });
    expect(ranged.refusal('10.9.8.7')).toBeNull();
    expect(ranged.refusal('192.168.0.1')).toBe('a private address');
    expect(new AddressGuard({ allowPrivate: true, allowedHosts: [] }).refusal('127.0.0.1')).toBeNull();
  });
});
