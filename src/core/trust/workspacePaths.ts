// Path containment without touching the disk. Which rules apply (separators, drive letters, case) is
// read off the path itself, so a Windows config judged on any machine gives the same answer.
import * as path from 'node:path';

type PathApi = typeof path.posix;

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

/** Whether a path is written in Windows form (`C:\…`, `C:/…` or `\\server\share`). */
export function isWindowsPath(text: string): boolean {
  return WINDOWS_ABSOLUTE.test(text);
}

/** Whether a path is absolute in either POSIX or Windows form. */
export function isAbsolutePath(text: string): boolean {
  return text.startsWith('/') || isWindowsPath(text);
}

function apiFor(text: string): PathApi {
  return isWindowsPath(text) ? path.win32 : path.posix;
}

/** Resolves `target` against `base` (both may be Windows or POSIX); undefined when it cannot be made absolute. */
export function resolvePath(base: string | undefined, target: string): string | undefined {
  if (isAbsolutePath(target)) return apiFor(target).resolve(target);
  if (base === undefined || !isAbsolutePath(base)) return undefined;
  return apiFor(base).resolve(base, target);
}

/** Whether `child` is `parent` or inside it, after resolving `..`; Windows paths compare case-insensitively. */
export function isWithin(parent: string, child: string): boolean {
  if (isWindowsPath(parent) !== isWindowsPath(child)) return false;
  const api = apiFor(parent);
  const fold = (p: string): string => (api === path.win32 ? api.resolve(p).toLowerCase() : api.resolve(p));
  const relative = api.relative(fold(parent), fold(child));
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${api.sep}`) && !api.isAbsolute(relative));
}

/** Whether a directory is a filesystem root (`/`, `C:\`): a PATH entry like that would make everything "on PATH". */
export function isRoot(dir: string): boolean {
  const api = apiFor(dir);
  const resolved = api.resolve(dir);
  return api.dirname(resolved) === resolved;
}

/** Expands a leading `~` or the literal `${userHome}` to the home folder. */
export function expandHomePrefix(text: string, userHome: string): string {
  const home = userHome.replace(/[\\/]+$/, '');
  if (text === '~' || text.startsWith('~/') || text.startsWith('~\\')) return home + text.slice(1);
  if (text.startsWith('${userHome}')) return home + text.slice('${userHome}'.length);
  return text;
}
