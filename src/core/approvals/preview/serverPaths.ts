// How @modelcontextprotocol/server-filesystem turns a requested path into the path it touches, or
// refuses it — predicted, not borrowed: the checks run in the same order with the same messages, so a
// card can say "the server will refuse this" before the call is made. What it does, in order:
//   1. `~` and `~/…` expand to the home folder; a Windows drive path is refused on POSIX.
//   2. A relative path resolves against the first root it lands inside (else the first root).
//   3. The path, lexically normalized (trimmed, one surrounding quote dropped, slashes collapsed), must
//      lie in a root.
//   4. An existing path is replaced by its real path, which must lie in a root too (a symbolic link
//      that escapes is refused). A path that does not exist is walked from its root one component at
//      a time — exact name first, else one Unicode-equivalent (NFC) name — resolving each link it
//      meets; the rest is appended unresolved. A dangling link on the way means "Parent directory does
//      not exist".
import * as path from 'node:path';
import { errorCode, errorText, type PreviewFileSystem } from './fileSystemPort';

/** The path the server will touch, or its refusal (`outside`: the path lies outside every root). */
export type ServerPath = { ok: true; path: string } | { ok: false; error: string; outside: boolean };

/**
 * The server's allowed directories for these roots, as it derives them from the roots a client sends:
 * each root's real path, normalized, kept only when it is a directory.
 */
export async function serverAllowedDirectories(roots: string[], fs: PreviewFileSystem): Promise<string[]> {
  const allowed: string[] = [];
  for (const root of roots) {
    try {
      const real = lexicalNormalize(await fs.realpath(path.resolve(root)));
      if ((await fs.entryKind(real)) === 'directory') allowed.push(real);
    } catch {
      // The server skips a root it cannot resolve; so does the prediction.
    }
  }
  return allowed;
}

/** Predicts the server's validation of `requested` against its allowed directories. */
export async function resolveServerPath(requested: string, allowed: string[], fs: PreviewFileSystem, home: string): Promise<ServerPath> {
  const expanded = requested === '~' || requested.startsWith('~/') ? path.join(home, requested.slice(1)) : requested;
  if (path.sep === '/' && /^[A-Za-z]:(?:[\\/]|$)/.test(expanded)) {
    return refuse(`Access denied - Windows-style path received on a POSIX host: ${requested}`, true);
  }
  const absolute = path.isAbsolute(expanded) ? path.resolve(expanded) : resolveRelative(expanded, allowed);
  if (!insideAny(lexicalNormalize(absolute), allowed)) {
    return refuse(`Access denied - path outside allowed directories: ${absolute} not in ${allowed.join(', ')}`, true);
  }
  let real: string;
  try {
    real = await fs.realpath(absolute);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') return refuse(errorText(error), false);
    return walkMissing(absolute, allowed, fs);
  }
  if (!insideAny(lexicalNormalize(real), allowed)) return escapes(real, allowed);
  return { ok: true, path: real };
}

/** Whether `candidate` is one of `directories` or below one (after resolving `.` and `..`); a NUL byte is never inside. */
export function insideAny(candidate: string, directories: string[]): boolean {
  if (candidate === '' || candidate.includes('\0')) return false;
  const resolved = path.resolve(path.normalize(candidate));
  return directories.some((directory) => {
    if (directory === '' || directory.includes('\0')) return false;
    const base = path.resolve(path.normalize(directory));
    if (resolved === base) return true;
    return resolved.startsWith(base === path.sep ? base : base + path.sep);
  });
}

/** The server's lexical normalization of a POSIX path: trimmed, a leading or trailing quote dropped, slashes collapsed, no trailing slash. */
export function lexicalNormalize(text: string): string {
  const unquoted = text.trim().replace(/^["']|["']$/g, '');
  if (path.sep === '/' && unquoted.startsWith('/')) return unquoted.replace(/\/+/g, '/').replace(/(?<!^)\/$/, '');
  return path.normalize(unquoted.replace(/\\\\/g, '\\'));
}

function resolveRelative(relative: string, allowed: string[]): string {
  for (const directory of allowed) {
    const candidate = path.resolve(directory, relative);
    if (insideAny(lexicalNormalize(candidate), allowed)) return candidate;
  }
  // With no root the server would fall back to its working directory; a prediction always has a root.
  return path.resolve(allowed[0] ?? path.sep, relative);
}

/** Step 4 for a path that does not exist (yet): walk down from its root, resolving what exists. */
async function walkMissing(absolute: string, allowed: string[], fs: PreviewFileSystem): Promise<ServerPath> {
  const normalized = lexicalNormalize(absolute);
  let base: string | undefined;
  for (const directory of allowed) {
    if (insideAny(normalized, [directory]) && (base === undefined || directory.length > base.length)) base = directory;
  }
  if (base === undefined) return { ok: true, path: absolute };
  const missingParent = () => refuse(`Parent directory does not exist: ${path.dirname(absolute)}`, false);
  try {
    let current = await fs.realpath(base);
    const parts = path.relative(base, absolute).split(path.sep).filter((part) => part !== '');
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index];
      const names = await fs.readDirectory(current);
      const matches = names.includes(part) ? [part] : names.filter((name) => name.normalize('NFC') === part.normalize('NFC'));
      if (matches.length > 1) return refuse(`Ambiguous Unicode path component: ${part}`, false);
      if (matches.length === 0) return { ok: true, path: path.join(current, ...parts.slice(index)) };
      current = await fs.realpath(path.join(current, matches[0]));
      if (!insideAny(lexicalNormalize(current), allowed)) return escapes(current, allowed);
    }
    return { ok: true, path: current };
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? missingParent() : refuse(errorText(error), false);
  }
}

function escapes(real: string, allowed: string[]): ServerPath {
  return refuse(`Access denied - symlink target outside allowed directories: ${real} not in ${allowed.join(', ')}`, true);
}

function refuse(error: string, outside: boolean): ServerPath {
  return { ok: false, error, outside };
}
