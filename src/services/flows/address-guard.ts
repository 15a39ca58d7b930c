import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';

export interface AddressPolicy {
  /** Every address may be dialled (trusted networks, tests). */
  allowPrivate: boolean;
  /** Host names and IPs opened whatever they resolve to, and CIDR ranges opened by address. */
  allowedHosts: string[];
}

/** A flow request refused because its address is not public (SSRF guard). */
export class BlockedAddressError extends Error {
  readonly code = 'SWITCHBOARD_BLOCKED_ADDRESS';
  constructor(host: string, address: string, reason: string) {
    const shown = host === address ? host : `${host} (${address})`;
    super(`Blocked: ${shown} is ${reason}; flow requests only reach public addresses unless WEBHOOK_ALLOWED_HOSTS or WEBHOOK_ALLOW_PRIVATE opens it`);
  }
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (cloud metadata services live there)',
  uniqueLocal: 'a unique-local address',
  unspecified: 'the unspecified address',
  carrierGradeNat: 'a carrier-grade NAT address (some cloud metadata services live there)',
  ipv4Compatible: 'an IPv4-compatible IPv6 address (deprecated)',
  rfc6052: 'a local-use NAT64 address',
  '6to4': 'a 6to4 address (deprecated)',
  teredo: 'a Teredo address',
};

const rangeName = (range: string): string => RANGE_NAMES[range] ?? `a non-public address (${range})`;

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Decides which addresses flow requests may dial, and builds the undici connector that
 * enforces it at connect time: host names are resolved by the guard's own lookup, which
 * hands `net.connect` only the addresses it accepts, so the address judged is the address
 * dialled (no DNS-rebinding gap); IP literals, which `net.connect` never looks up, are
 * judged before connecting. Only global addresses pass: ipaddr.js's `unicast` range, once
 * an IPv6 address carrying an IPv4 address is judged by it (`classify`).
 */
export class AddressGuard {
  private readonly hosts = new Set<string>();
  private readonly ranges: Cidr[] = [];

  constructor(private readonly policy: AddressPolicy) {
    for (const entry of policy.allowedHosts) {
      if (entry.includes('/') && ipaddr.isValidCIDR(entry)) this.ranges.push(ipaddr.parseCIDR(entry));
      else this.hosts.add(bare(entry));
    }
  }

  /** Why `address` may not be dialled, or null when it may. */
  refusal(address: string): string | null {
    if (this.policy.allowPrivate || !ipaddr.isValid(address)) return null;
    const { judged, embedded, compatible } = classify(ipaddr.process(address));
    if (this.ranges.some(([range, bits]) => judged.kind() === range.kind() && judged.match(range, bits))) return null;
    const carried = embedded.find((v4) => v4.range() !== 'unicast');
    if (carried) return `${rangeName(carried.range())} (IPv4 ${carried.toString()} inside IPv6)`;
    const range = compatible ? 'ipv4Compatible' : judged.range();
    return range === 'unicast' ? null : rangeName(range);
  }

  /** The undici `connect` option enforcing the policy. */
  connector(): buildConnector.connector {
    const open = buildConnector({});
    const guarded = buildConnector({ lookup: this.lookup });
    return (options, callback) => {
      const host = bare(options.hostname);
      if (this.policy.allowPrivate || this.hosts.has(host)) {
        open(options, callback);
        return;
      }
      if (net.isIP(host)) {
        const reason = this.refusal(host);
        if (reason) callback(new BlockedAddressError(host, host, reason), null);
        else open(options, callback);
        return;
      }
      guarded(options, callback);
    };
  }

  private readonly lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        callback(err, '', 0);
        return;
      }
      const usable = addresses.filter((a) => this.refusal(a.address) === null);
      const first = usable[0];
      if (!first) {
        const sample = addresses[0].address;
        callback(new BlockedAddressError(hostname, sample, this.refusal(sample)!), '', 0);
        return;
      }
      if (options.all) callback(null, usable);
      else callback(null, first.address, first.family);
    });
  };
}

/**
 * How an address is judged (`judged`, and the IPv4 addresses it carries, `embedded`). An
 * IPv6 address that carries an IPv4 address is judged as that IPv4 address where the
 * network delivers it there: IPv4-mapped `::ffff:0:0/96` (ipaddr.js
 * `process` already turns it into IPv4), IPv4-translated `::ffff:0:0:0/96` (SIIT) and the
 * NAT64 well-known prefix `64:ff9b::/96` (DNS64 gives such addresses for public IPv4
 * hosts). The other forms are refused whatever they carry, but `embedded` lets the refusal
 * name a non-public IPv4 inside them: IPv4-compatible `::/96` (deprecated by RFC 4291;
 * `::` and `::1` keep their own names), 6to4 `2002::/16` (bits 16-47), Teredo `2001::/32`
 * (server in bits 32-63, client as the complement of the last 32 bits). Local-use NAT64
 * `64:ff9b:1::/48` places the IPv4 address where its operator chose: refused as it is.
 */
function classify(ip: ipaddr.IPv4 | ipaddr.IPv6): { judged: ipaddr.IPv4 | ipaddr.IPv6; embedded: ipaddr.IPv4[]; compatible: boolean } {
  const as = (judged: ipaddr.IPv4 | ipaddr.IPv6, embedded: ipaddr.IPv4[] = [], compatible = false) => ({ judged, embedded, compatible });
  if (ip.kind() === 'ipv4') return as(ip);
  const bytes = ip.toByteArray();
  const v4 = (from: number, flip = 0) => new ipaddr.IPv4(bytes.slice(from, from + 4).map((b) => b ^ flip));
  const range = ip.range();
  const nat64 = range === 'rfc6052' && bytes.slice(4, 12).every((b) => b === 0);
  if (range === 'rfc6145' || nat64) return as(v4(12));
  if (range === '6to4') return as(ip, [v4(2)]);
  if (range === 'teredo') return as(ip, [v4(4), v4(12, 0xff)]);
  // ipaddr.js has no range for ::/96: it calls these `unicast`.
  if (range === 'unicast' && bytes.slice(0, 12).every((b) => b === 0)) return as(ip, [v4(12)], true);
  return as(ip);
}

/** `[::1]` -> `::1`, lower case. */
function bare(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}
