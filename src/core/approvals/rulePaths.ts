// How a path argument is read for a rule that names files: lexically, never through the file system
// (symbolic links are not followed here; a write a link carries outside the workspace is caught by the
// preview, which makes such a call ask before any rule is looked at). Deny by default: a path is
// understood only in the plain forms below, and anything else (a `~`, a `file:` URI, quotes or spaces
// around it, control characters, a backslash on POSIX, a UNC or drive-relative path on Windows, a
// Windows name that the system would silently shorten) is "not understood", so an allow rule never
// matches it.

/** Which system's paths: POSIX (`/home/me/x`) or Windows (`C:\Users\me\x`, written `C:/Users/me/x` in rules). */
export type PathStyle = 'posix' | 'win32';

/** A path read lexically: absolute, `.` and `..` resolved, `/` as the separator (Windows: upper-case drive). */
export type LexicalPath =
  | { readonly ok: true; readonly path: string; readonly style: PathStyle }
  | { readonly ok: false; readonly why: string };

/** The style of an absolute path in a rule or a root: a drive letter means Windows. */
export function styleOfAbsolute(text: string): PathStyle | undefined {
  if (/^[A-Za-z]:[\\/]/.test(text)) return 'win32';
  if (text.startsWith('/')) return 'posix';
  return undefined;
}

/**
 * Reads `text` as a path of `style`: an absolute one as it is, a relative one against the first root
 * (what server-filesystem does with a path that stays inside the roots). Never touches the disk.
 */
export function lexicalPath(text: string, style: PathStyle, roots: readonly string[]): LexicalPath {
  const problem = unreadable(text, style);
  if (problem !== undefined) return { ok: false, why: problem };
  const slashed = style === 'win32' ? text.replace(/\\/g, '/') : text;
  if (isAbsolute(slashed, style)) return normalizeAbsolute(slashed, style);
  if (style === 'win32' && (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed))) {
    return { ok: false, why: `"${text}" is a UNC, device or drive-relative path, which rules do not match` };
  }
  const root = roots[0];
  if (root === undefined) return { ok: false, why: `"${text}" is relative and no workspace folder is open to read it against` };
  const base = lexicalPath(root, style, []);
  if (!base.ok) return { ok: false, why: `the workspace folder ${root} is not a ${style === 'win32' ? 'Windows' : 'POSIX'} path` };
  return normalizeAbsolute(`${base.path}/${slashed}`, style);
}

/** Whether `inner` is `outer` or lies under it (both lexical paths of one style). */
export function isUnder(inner: string, outer: string, style: PathStyle): boolean {
  const [a, b] = style === 'win32' ? [inner.toLowerCase(), outer.toLowerCase()] : [inner, outer];
  return a === b || a.startsWith(b.endsWith('/') ? b : `${b}/`);
}

/** The folder a lexical path lies in (the root itself for a root). */
export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  const parent = path.slice(0, cut);
  if (parent === '') return '/';
  return /^[A-Za-z]:$/.test(parent) ? `${parent}/` : parent;
}

function isAbsolute(slashed: string, style: PathStyle): boolean {
  return style === 'win32' ? /^[A-Za-z]:\//.test(slashed) : slashed.startsWith('/');
}

function unreadable(text: string, style: PathStyle): string | undefined {
  if (text === '') return 'the path is empty';
  if (text.trim() !== text) return `"${text}" has spaces around it (servers trim them)`;
  if (/^["']|["']$/.test(text)) return `"${text}" is quoted (servers drop the quotes)`;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'the path holds control characters';
  if (text.startsWith('~')) return `"${text}" starts with ~ (the home folder is not read by rules)`;
  if (/^[A-Za-z][A-Za-z0-9+.-]+:/.test(text)) return `"${text}" is a URI, not a plain path`;
  if (style === 'posix' && text.includes('\\')) return `"${text}" holds a backslash (a separator on Windows, a name character on POSIX)`;
  return undefined;
}

/** Resolves `.` and `..` of an absolute, slash-separated path; refuses Windows names the system would change. */
function normalizeAbsolute(slashed: string, style: PathStyle): LexicalPath {
  const drive = style === 'win32' ? slashed.slice(0, 2).toUpperCase() : '';
  const rest = style === 'win32' ? slashed.slice(2) : slashed;
  const parts: string[] = [];
  for (const part of rest.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      parts.pop();
      continue;
    }
    // Windows drops trailing dots and spaces (`..  ` is `..`) and reads `name:stream` as a stream.
    if (style === 'win32' && (/[. ]$/.test(part) || part.includes(':'))) {
      return { ok: false, why: `"${part}" is a Windows name the system would read differently` };
    }
    parts.push(part);
  }
  return { ok: true, path: `${drive}/${parts.join('/')}`, style };
}
