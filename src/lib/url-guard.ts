// SSRF guard for webhook URLs (contract §7): only globally routable unicast addresses may be reached.
// Addresses are classified by ipaddr.js's maintained range tables rather than hand-written prefixes.
// IPv4: anything ipaddr.js does not call 'unicast' is refused (unspecified, broadcast, multicast,
// link-local and with it the 169.254.169.254 metadata address, loopback, shared 100.64/10, private,
// reserved, documentation, benchmarking, AS112, AMT). IPv6: only 'unicast' inside the global unicast
// block 2000::/3 passes, which refuses loopback, unspecified, link-local, site-local fec0::/10,
// unique-local fc00::/7 (and the fd00:ec2::254 metadata address in it), multicast, documentation,
// benchmarking, discard, ORCHID, and every form that embeds an IPv4 address: IPv4-mapped ::ffff:0:0/96,
// IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4
// 2002::/16 and Teredo 2001::/32. Those are refused outright rather than judged by the IPv4 inside: a
// webhook receiver has no need of a translation mechanism, and the embedded address is where it leads.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/** Whether an IP address is one a webhook must never reach (anything that is not an IP address counts). */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  return parsed.range() !== 'unicast' || !parsed.match(GLOBAL_UNICAST_V6);
}

/** Resolves a URL's host and names the first address that is not public, if any. */
export async function findPrivateAddress(url: string): Promise<string | undefined> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host) ? [{ address: host }] : await lookup(host, { all: true }).catch(() => []);
  if (addresses.length === 0) return host;
  return addresses.find(({ address }) => isPrivateAddress(address))?.address;
}
