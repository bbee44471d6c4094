// Which hosts a repository's server config should not quietly point at: private networks, loopback
// aliases, link-local and cloud-metadata addresses, and IPv4 written in a disguised form. Plain
// `localhost`, `127.0.0.1` and `[::1]` are how local dev servers are reached and pass unremarked.
import { isIPv4, isIPv6 } from 'node:net';

/** An http(s)/ws(s) URL as WHATWG parses it, with the host exactly as written beside the normalised one. */
export interface WebUrl {
  url: URL;
  /** The host as written, lower-case, without user info or port: `0x7f000002`, `[::ffff:127.0.0.2]`. */
  rawHost: string;
}

const WEB_PROTOCOLS = new Set(['http:', 'https:', 'ws:', 'wss:']);
/** Host names that resolve to a cloud provider's instance-metadata service. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);
/** Wildcard DNS services that resolve `10.0.0.5.nip.io` to `10.0.0.5`. */
const WILDCARD_DNS = /^(?:.*?[.-])?(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})\.(?:nip\.io|sslip\.io|xip\.io|traefik\.me)$/;

/** Parses an http(s)/ws(s) URL, or returns undefined for anything else (including unexpanded `${…}`). */
export function parseWebUrl(text: string): WebUrl | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (!WEB_PROTOCOLS.has(url.protocol)) return undefined;
  const authority = /^[a-z][a-z0-9+.-]*:[\\/]*([^/?#\\]*)/i.exec(text.trim())?.[1] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const rawHost = (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '')).toLowerCase();
  return { url, rawHost };
}

/** Why a URL's host is a concern (e.g. `169.254.169.254 (cloud metadata endpoint)`), or undefined when it is not. */
export function addressConcern(web: WebUrl): string | undefined {
  const hostname = web.url.hostname.toLowerCase();
  if (isIPv4(hostname)) {
    const concern = ipv4Concern(hostname);
    // 2130706433, 0x7f000002, 0177.0.0.1 and 127.1 all parse as IPv4: a disguise, whatever they point at.
    if (web.rawHost !== hostname) return `${web.rawHost} = ${hostname} (${concern ?? 'IPv4 address'} written in a disguised form)`;
    return concern === undefined ? undefined : `${hostname} (${concern})`;
  }
  if (hostname.startsWith('[')) {
    const concern = ipv6Concern(hostname.slice(1, -1));
    return concern === undefined ? undefined : `${web.rawHost} (${concern})`;
  }
  const name = hostname.replace(/\.$/, '');
  if (METADATA_HOSTS.has(name)) return `${name} (cloud metadata host)`;
  const wildcard = WILDCARD_DNS.exec(name);
  if (wildcard) {
    const embedded = wildcard.slice(1, 5).join('.');
    const concern = isIPv4(embedded) ? ipv4Concern(embedded) : undefined;
    return concern === undefined ? undefined : `${name} (resolves to ${embedded}, ${concern})`;
  }
  return undefined;
}

/** Whether traffic to this host stays on this machine (localhost, 127/8, ::1, 0.0.0.0 and their mapped forms). */
export function isLocalHost(web: WebUrl): boolean {
  const hostname = web.url.hostname.toLowerCase().replace(/\.$/, '');
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (isIPv4(hostname)) return hostname.startsWith('127.') || hostname.startsWith('0.');
  if (!hostname.startsWith('[')) return false;
  const groups = parseIPv6(hostname.slice(1, -1));
  if (groups === undefined) return false;
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] <= 1) return true;
  const embedded = mappedIPv4(groups);
  return embedded !== undefined && (embedded.startsWith('127.') || embedded.startsWith('0.'));
}

/** What is notable about an IPv4 address, or undefined for public addresses and plain 127.0.0.1. */
export function ipv4Concern(address: string): string | undefined {
  const [a, b] = address.split('.').map(Number);
  if (address === '127.0.0.1') return undefined;
  if (a === 127) return 'loopback alias';
  if (a === 0) return 'unspecified address, reaches this machine';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private network';
  if (address === '169.254.169.254' || address === '100.100.100.200') return 'cloud metadata endpoint';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && b >= 64 && b <= 127) return 'shared address space';
  return undefined;
}

function ipv6Concern(address: string): string | undefined {
  const groups = parseIPv6(address);
  if (groups === undefined) return undefined;
  if (groups.every((g) => g === 0)) return 'unspecified address, reaches this machine';
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return undefined;
  const embedded = mappedIPv4(groups);
  if (embedded !== undefined) {
    // The mapped form of even 127.0.0.1 is a disguise: nobody writes loopback that way by accident.
    return `IPv4 ${embedded} embedded in IPv6, ${ipv4Concern(embedded) ?? (embedded === '127.0.0.1' ? 'loopback' : 'public')}`;
  }
  if (groups[0] === 0xfd00 && groups[1] === 0x0ec2) return 'cloud metadata endpoint';
  if ((groups[0] & 0xfe00) === 0xfc00) return 'private network (unique local)';
  if ((groups[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((groups[0] & 0xffc0) === 0xfec0) return 'private network (site-local)';
  return undefined;
}

/**
 * The IPv4 address carried inside an IPv6 one, when the IPv4 part is not public: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`).
 */
function mappedIPv4(groups: number[]): string | undefined {
  const v4 = (high: number, low: number): string => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  let embedded: string | undefined;
  const zeros = (from: number, to: number): boolean => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) embedded = v4(groups[6], groups[7]);
  else if (zeros(0, 6) && (groups[6] !== 0 || groups[7] > 1)) embedded = v4(groups[6], groups[7]);
  else if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) embedded = v4(groups[6], groups[7]);
  else if (groups[0] === 0x2002) embedded = v4(groups[1], groups[2]);
  if (embedded === undefined) return undefined;
  return embedded === '127.0.0.1' || ipv4Concern(embedded) !== undefined ? embedded : undefined;
}

/** Parses an IPv6 address (without brackets or zone) into eight 16-bit groups. */
export function parseIPv6(address: string): number[] | undefined {
  const text = address.replace(/%.*$/, '');
  if (!isIPv6(text)) return undefined;
  let body = text;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const parts = dotted[1].split('.').map(Number);
    tail.push((parts[0] << 8) | parts[1], (parts[2] << 8) | parts[3]);
    body = body.slice(0, -dotted[1].length).replace(/:$/, body.endsWith('::' + dotted[1]) ? ':' : '');
  }
  const [head, rest] = body.split('::');
  const parse = (part: string | undefined): number[] => (part ? part.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = [...parse(rest), ...tail];
  const fill = rest === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  const groups = [...left, ...fill, ...right];
  return groups.length === 8 ? groups : undefined;
}
