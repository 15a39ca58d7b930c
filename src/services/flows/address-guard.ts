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
};

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Decides which addresses flow requests may dial, and builds the undici connector that
 * enforces it at connect time: host names are resolved by the guard's own lookup, which
 * hands `net.connect` only the addresses it accepts, so the address judged is the address
 * dialled (no DNS-rebinding gap); IP literals, which `net.connect` never looks up, are
 * judged before connecting. Only ipaddr.js's `unicast` range (global addresses) passes.
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
    const ip = ipaddr.process(address);
    if (this.ranges.some(([range, bits]) => ip.kind() === range.kind() && ip.match(range, bits))) return null;
    const range = ip.range();
    return range === 'unicast' ? null : (RANGE_NAMES[range] ?? `a non-public address (${range})`);
  }

  /** The undici `connect` option enforcing the policy. */
  connector(): buildConnector.connector {
    const open = buildConnector({});
    const guarded = buildConnector({ lookup: this.lookup });
    return (options, callback) => {
      const host = bare(options.hostname);
      if (this.policy.allowPrivate || this.hosts.has(host)) return open(options, callback);
      if (net.isIP(host)) {
        const reason = this.refusal(host);
        return reason ? callback(new BlockedAddressError(host, host, reason), null) : open(options, callback);
      }
      guarded(options, callback);
    };
  }

  private readonly lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const usable = addresses.filter((a) => this.refusal(a.address) === null);
      const first = usable[0];
      if (!first) {
        const sample = addresses[0]!.address;
        return callback(new BlockedAddressError(hostname, sample, this.refusal(sample)!), '', 0);
      }
      if (options.all) callback(null, usable);
      else callback(null, first.address, first.family);
    });
  };
}

/** `[::1]` -> `::1`, lower case. */
function bare(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}
