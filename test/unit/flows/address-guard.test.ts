import { AddressGuard } from '../../../src/services/flows/address-guard';

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

  it.each([
    // IPv4-compatible ::/96 (deprecated): what a URL's [::127.0.0.1] becomes.
    ['::7f00:1', 'a loopback address (IPv4 127.0.0.1 inside IPv6)'],
    ['::a9fe:a9fe', 'a link-local address (cloud metadata services live there) (IPv4 169.254.169.254 inside IPv6)'],
    ['::a00:1', 'a private address (IPv4 10.0.0.1 inside IPv6)'],
    ['::808:808', 'an IPv4-compatible IPv6 address (deprecated)'],
    // IPv4-mapped ::ffff:0:0/96, in hex.
    ['::ffff:a9fe:a9fe', 'a link-local address (cloud metadata services live there)'],
    // IPv4-translated ::ffff:0:0:0/96 and NAT64 64:ff9b::/96: the IPv4 address they reach.
    ['::ffff:0:7f00:1', 'a loopback address'],
    ['64:ff9b::a9fe:a9fe', 'a link-local address (cloud metadata services live there)'],
    ['64:ff9b::192.168.0.1', 'a private address'],
    ['64:ff9b:1::a00:1', 'a local-use NAT64 address'],
    // 6to4 2002::/16 and Teredo 2001::/32.
    ['2002:7f00:1::1', 'a loopback address (IPv4 127.0.0.1 inside IPv6)'],
    ['2002:a9fe:a9fe::', 'a link-local address (cloud metadata services live there) (IPv4 169.254.169.254 inside IPv6)'],
    ['2002:808:808::1', 'a 6to4 address (deprecated)'],
    ['2001:0:a00:1::f5ff:fffe', 'a private address (IPv4 10.0.0.1 inside IPv6)'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'a loopback address (IPv4 127.0.0.1 inside IPv6)'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'a Teredo address'],
  ])('classifies the IPv4 address inside the IPv6 address %s', (address, reason) => {
    expect(strict.refusal(address)).toBe(reason);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '64:ff9b::808:808', '::ffff:0:808:808'])('accepts the public address %s', (address) => {
    expect(strict.refusal(address)).toBeNull();
  });

  it('opens CIDR ranges of the allow-list, and everything with allowPrivate', () => {
    const ranged = new AddressGuard({ allowPrivate: false, allowedHosts: ['10.0.0.0/8', 'hooks.internal'] });
    expect(ranged.refusal('10.9.8.7')).toBeNull();
    expect(ranged.refusal('192.168.0.1')).toBe('a private address');
    expect(ranged.refusal('64:ff9b::a09:807')).toBeNull();
    expect(new AddressGuard({ allowPrivate: true, allowedHosts: [] }).refusal('127.0.0.1')).toBeNull();
  });
});
