// A repository is "verified" when its origin remote matches a user setting such as
// `github.com/my-org/*`. Remotes come in many spellings (https, ssh, scp-like, with tokens, with
// ports), so both sides are reduced to `host/path`. Anything unusual yields no match rather than a
// guess: a repository that cannot be verified is merely asked about.

/**
 * `host/path` for a git remote URL: host lower-case, without scheme, user, password, port, trailing
 * `.git` or `/`; undefined for local paths, `file://` and anything that does not parse cleanly. Ports
 * are dropped because every port of a host belongs to whoever owns the host. Azure DevOps SSH remotes
 * are rewritten to their HTTPS form so one glob covers both.
 */
export function normalizeGitRemote(url: string): string | undefined {
  const text = url.trim();
  if (text === '' || /\s/.test(text) || /^[A-Za-z]:[\\/]/.test(text) || text.startsWith('\\\\')) return undefined;
  const parsed = parseRemote(text);
  if (parsed === undefined) return undefined;
  const host = normalizeHost(parsed.host);
  const path = normalizePath(parsed.path);
  if (host === undefined || path === undefined) return undefined;
  return rewriteAzure(`${host}/${path}`);
}

const SCHEMES = new Set(['https', 'http', 'ssh', 'git', 'git+ssh', 'ssh+git', 'ftp', 'ftps']);

function parseRemote(text: string): { host: string; path: string } | undefined {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text);
  if (scheme) {
    if (!SCHEMES.has(scheme[1].toLowerCase())) return undefined; // file://, and anything unknown
    const rest = text.slice(scheme[0].length);
    const slash = rest.indexOf('/');
    if (slash < 0) return undefined;
    const authority = rest.slice(0, slash);
    // The last `@` ends the user info, as a URL parser reads it: `https://a@b@host/…` goes to `host`.
    const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
    const host = hostPort.startsWith('[') ? hostPort.slice(0, hostPort.indexOf(']') + 1) : hostPort.replace(/:\d*$/, '');
    if (host === '' || (!hostPort.startsWith('[') && host.includes(':'))) return undefined;
    return { host, path: rest.slice(slash + 1) };
  }
  // scp-like `[user@]host:path`: git reads it so only when a colon comes before any slash.
  const scp = /^(?:([^@/:]+)@)?(\[[^\]]+\]|[^:/[\]]+):(?!\/\/)(.*)$/.exec(text);
  if (scp) return { host: scp[2], path: scp[3] };
  return undefined;
}

function normalizeHost(host: string): string | undefined {
  const lower = host.toLowerCase().replace(/\.$/, '');
  if (/^\[[0-9a-f:.]+\]$/.test(lower)) return lower;
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(lower) ? lower : undefined;
}

function normalizePath(raw: string): string | undefined {
  // An encoded slash or backslash would become a new path segment once decoded: no plain remote has one.
  if (/[?#\\]|%2f|%5c/i.test(raw)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  // `%2F..%2F` decoded, or a path with control characters, is never a plain repository path.
  if (/\p{Cc}|\\/u.test(decoded)) return undefined;
  const segments = decoded.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/i, '').replace(/\/+$/, '').split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.startsWith('~'))) return undefined;
  return segments.join('/');
}

/** `ssh.dev.azure.com/v3/org/project/repo` → `dev.azure.com/org/project/_git/repo`, the form its HTTPS remotes take. */
function rewriteAzure(normalized: string): string {
  const azure = /^ssh\.dev\.azure\.com\/v3\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(normalized);
  return azure ? `dev.azure.com/${azure[1]}/${azure[2]}/_git/${azure[3]}` : normalized;
}

/**
 * Whether a normalised remote matches any glob. Globs are written like remotes (`github.com/my-org/*`;
 * a scheme, user or trailing `.git` is ignored): `*` matches within one path segment, `**` any number
 * of segments (including none). Matching ignores case throughout, since hosts do and GitHub and GitLab
 * paths do too.
 */
export function matchesTrustedRepository(normalized: string, globs: readonly string[]): boolean {
  const target = normalized.toLowerCase().split('/');
  return globs.some((glob) => {
    const pattern = normalizeGlob(glob);
    return pattern !== undefined && matchSegments(pattern, 0, target, 0);
  });
}

function normalizeGlob(glob: string): string[] | undefined {
  let text = glob.trim().toLowerCase();
  if (text === '') return undefined;
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^[^/@]*@/, '');
  // scp-like `host:org/*` reads as `host/org/*`; a `host:port/` is dropped like a remote's port.
  text = text.replace(/^([^/:]+):\d*\//, '$1/').replace(/^([^/:]+):(?!\/)/, '$1/');
  text = text.replace(/\/+$/, '').replace(/\.git$/, '');
  const segments = text.split('/');
  return segments.some((segment) => segment === '') ? undefined : segments;
}

function matchSegments(pattern: string[], p: number, target: string[], t: number): boolean {
  if (p === pattern.length) return t === target.length;
  if (pattern[p] === '**') {
    for (let k = t; k <= target.length; k++) if (matchSegments(pattern, p + 1, target, k)) return true;
    return false;
  }
  return t < target.length && segmentMatches(pattern[p], target[t]) && matchSegments(pattern, p + 1, target, t + 1);
}

function segmentMatches(pattern: string, segment: string): boolean {
  if (!pattern.includes('*')) return pattern === segment;
  const regex = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[^/]*')}$`);
  return regex.test(segment);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The first `url` of `[remote "origin"]` in the text of a `.git/config`, with the config's own
 * `url.<base>.insteadOf` rewrites applied; undefined when there is none. Reading the file this way
 * means the adapter never has to run git in an untrusted repository.
 */
export function parseGitConfigOrigin(configText: string): string | undefined {
  let section: { name: string; sub?: string } | undefined;
  let origin: string | undefined;
  const insteadOf: { base: string; prefix: string }[] = [];
  for (const line of logicalLines(configText)) {
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      const [, rawName, quotedSub] = header;
      // `[remote.origin]` is the old spelling of `[remote "origin"]` (its subsection is lower-cased).
      const dot = rawName.indexOf('.');
      section = quotedSub !== undefined
        ? { name: rawName.toLowerCase(), sub: quotedSub.replace(/\\(.)/g, '$1') }
        : dot > 0 ? { name: rawName.slice(0, dot).toLowerCase(), sub: rawName.slice(dot + 1).toLowerCase() } : { name: rawName.toLowerCase() };
      // A variable may follow the header on the same line.
      const after = header[3];
      if (after.trim() === '') continue;
      handle(after);
      continue;
    }
    handle(line);
  }
  return origin === undefined ? undefined : applyInsteadOf(origin, insteadOf);

  function handle(line: string): void {
    const entry = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (!entry || section === undefined || entry[2] === undefined) return;
    const key = entry[1].toLowerCase();
    const value = configValue(entry[2]);
    if (section.name === 'remote' && section.sub === 'origin' && key === 'url' && origin === undefined) origin = value;
    if (section.name === 'url' && section.sub !== undefined && key === 'insteadof') insteadOf.push({ base: section.sub, prefix: value });
  }
}

/** Lines of a git config with `\`-newline continuations joined. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const physical of text.split(/\r?\n/)) {
    if (/(^|[^\\])(\\\\)*\\$/.test(physical)) {
      pending += physical.slice(0, -1);
      continue;
    }
    lines.push(pending + physical);
    pending = '';
  }
  if (pending !== '') lines.push(pending);
  return lines;
}

/** A git config value: quotes removed, `\"`, `\\`, `\n`, `\t` unescaped, a `#` or `;` comment outside quotes dropped, outer blanks trimmed. */
function configValue(raw: string): string {
  let out = '';
  let inQuotes = false;
  let trailingBlanks = 0;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '"') {
      inQuotes = !inQuotes;
      trailingBlanks = 0;
    } else if (ch === '\\' && i + 1 < raw.length) {
      const next = raw[++i];
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '' : next;
      trailingBlanks = 0;
    } else if (!inQuotes && (ch === '#' || ch === ';')) {
      break;
    } else if (!inQuotes && (ch === ' ' || ch === '\t')) {
      if (out !== '') {
        out += ch;
        trailingBlanks++;
      }
    } else {
      out += ch;
      trailingBlanks = 0;
    }
  }
  return trailingBlanks > 0 ? out.slice(0, -trailingBlanks) : out;
}

/** Applies the longest matching `insteadOf` prefix, as git does. */
function applyInsteadOf(url: string, rules: { base: string; prefix: string }[]): string {
  let best: { base: string; prefix: string } | undefined;
  for (const rule of rules) {
    if (rule.prefix !== '' && url.startsWith(rule.prefix) && (best === undefined || rule.prefix.length > best.prefix.length)) best = rule;
  }
  return best === undefined ? url : best.base + url.slice(best.prefix.length);
}
