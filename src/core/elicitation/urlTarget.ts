// The page a URL elicitation asks the person to open, as the card shows it: the whole address, and the
// site it belongs to set apart, so a look-alike domain is seen for what it is. Only web pages open.

export interface UrlTarget {
  readonly href: string;
  /** `https:` or `http:`; anything else is never opened. */
  readonly scheme: string;
  /** The host name as the browser resolves it (punycode for international names). */
  readonly host: string;
  /** Whether the person may open it: an http(s) URL without credentials in it. */
  readonly openable: boolean;
  /** Why it may not be opened. */
  readonly problem?: string;
}

export function urlTarget(raw: string): UrlTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { href: raw, scheme: '', host: '', openable: false, problem: 'not a valid URL' };
  }
  const base = { href: url.href, scheme: url.protocol, host: url.hostname };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ...base, openable: false, problem: `a ${url.protocol} link is not a web page` };
  if (url.username !== '' || url.password !== '') return { ...base, openable: false, problem: 'the link carries a user name or password' };
  return { ...base, openable: true };
}
