// URLs compared in one form: the WHATWG URL parser's (scheme and host in lower case, IDNA to
// punycode, default port dropped, IPv4 spellings made one), without a host's trailing dot and without
// user info (`https://good.example@evil.example/` is evil.example). A rule's pattern gets the same
// scheme and host treatment where no `*` stands in them.
import { domainToASCII } from 'node:url';

/** The compared form of `url` (`HTTPS://Evil.Example.:443/` → `https://evil.example/`), or undefined when it is not a URL. */
export function normalizeUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const host = parsed.hostname.replace(/\.$/, '');
  const port = parsed.port === '' ? '' : `:${parsed.port}`;
  const authority = parsed.host === '' && parsed.protocol === 'file:' ? '' : `${host}${port}`;
  return `${parsed.protocol}//${authority}${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** A rule's URL pattern with its scheme and host in the compared form (`HTTPS://Bücher.Example/*` → `https://xn--bcher-kva.example/*`). */
export function normalizeUrlPattern(pattern: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/s.exec(pattern);
  if (match === null) return pattern;
  const [, scheme, authority, rest] = match;
  if (authority.includes('@')) return pattern;
  const portAt = authority.lastIndexOf(':');
  const hasPort = portAt >= 0 && !authority.endsWith(']') && /^[\d*]*$/.test(authority.slice(portAt + 1));
  const host = hasPort ? authority.slice(0, portAt) : authority;
  const port = hasPort ? authority.slice(portAt) : '';
  const lowered = scheme.toLowerCase();
  const defaultPort = (lowered === 'https://' || lowered === 'wss://') && port === ':443' ? '' : (lowered === 'http://' || lowered === 'ws://') && port === ':80' ? '' : port;
  const labels = host.replace(/\.$/, '').split('.').map((label) => (label.includes('*') ? label.toLowerCase() : domainToASCII(label) || label.toLowerCase()));
  return `${lowered}${labels.join('.')}${defaultPort}${rest}`;
}
