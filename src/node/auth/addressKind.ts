// Where a host is, as far as following a URL a server handed us is concerned: this computer (loopback),
// a private network, a link-local network (where cloud metadata services answer), or the public
// internet. A host name is resolved and counts as the least public of its addresses.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export type AddressKind = 'loopback' | 'private' | 'linkLocal' | 'public';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

// Not the public internet: RFC 1918, shared address space (RFC 6598), "this network", unique local IPv6, unspecified.
const PRIVATE = new BlockList();
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addSubnet('0.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addAddress('::', 'ipv6');

const RANK: Record<AddressKind, number> = { public: 0, private: 1, loopback: 2, linkLocal: 3 };

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`), as IPv4; otherwise undefined. */
function mappedIPv4(address: string): string | undefined {
  const m = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2] ?? '0', 16), lo = parseInt(m[3] ?? '0', 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** The kind of an IP address (v4 or v6); undefined when `address` is not one. */
export function kindOfAddress(address: string): AddressKind | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = mappedIPv4(bare);
  const ip = v4 ?? bare;
  const family = isIP(ip);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(ip, type)) return 'loopback';
  if (LINK_LOCAL.check(ip, type)) return 'linkLocal';
  if (PRIVATE.check(ip, type)) return 'private';
  return 'public';
}

/** Whether `hostname` (as in a URL) names this computer without asking DNS: localhost, 127/8, ::1. */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || kindOfAddress(host) === 'loopback';
}

export type Resolve = (hostname: string) => Promise<string[]>;

const resolveWithDns: Resolve = async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address);

/** The kind of a URL's host: an address as it is, `localhost` as loopback, a name by what DNS answers. */
export async function kindOfHost(hostname: string, resolve: Resolve = resolveWithDns): Promise<AddressKind> {
  if (isLoopbackHostname(hostname)) return 'loopback';
  const literal = kindOfAddress(hostname);
  if (literal) return literal;
  const kinds = (await resolve(hostname)).map((address) => kindOfAddress(address) ?? 'public');
  return kinds.reduce<AddressKind>((least, kind) => (RANK[kind] > RANK[least] ? kind : least), 'public');
}
