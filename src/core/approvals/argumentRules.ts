// Rules that hold only for some arguments of a call: "this file", "files under this folder" (a glob
// over the path argument, read lexically: rulePaths.ts) and "when this argument is this value". A rule
// with constraints is about the calls whose every constraint is understood and satisfied; an allow
// rule never matches a call it does not understand, a deny rule refuses it (a refusal may refuse more
// than meant, never let more through).
import { escape, Minimatch, unescape } from 'minimatch';
import { isUnder, lexicalPath, parentOf, styleOfAbsolute, type PathStyle } from './rulePaths';

/** A JSON scalar an argument may be compared with. */
export type ArgumentValue = string | number | boolean | null;

/** One condition on one argument of a call. */
export type ArgumentConstraint =
  /** The argument is a path that matches `glob`: absolute, `/`-separated (`/ws/notes/**`, `C:/ws/a.md`). */
  | { readonly kind: 'path'; readonly argument: string; readonly glob: string }
  /** The argument is exactly this value (same JSON type). */
  | { readonly kind: 'equals'; readonly argument: string; readonly value: ArgumentValue }
  /** A condition this version does not know (kept so a deny rule still refuses, an allow rule never allows). */
  | { readonly kind: 'unknown'; readonly text: string };

/** How a call stands against a rule's constraints. */
export type ArgumentCheck =
  | { readonly kind: 'satisfied' }
  | { readonly kind: 'unsatisfied'; readonly why: string }
  | { readonly kind: 'notUnderstood'; readonly why: string };

const MATCH_OPTIONS = { dot: true, nonegate: true, nocomment: true, platform: 'linux' as const };

/** Checks every constraint: unsatisfied when one is understood and fails, else not understood when one is not understood. */
export function checkArguments(constraints: readonly ArgumentConstraint[], args: Readonly<Record<string, unknown>>, roots: readonly string[]): ArgumentCheck {
  const checks = constraints.map((constraint) => checkOne(constraint, args, roots));
  return checks.find((c) => c.kind === 'unsatisfied') ?? checks.find((c) => c.kind === 'notUnderstood') ?? { kind: 'satisfied' };
}

function checkOne(constraint: ArgumentConstraint, args: Readonly<Record<string, unknown>>, roots: readonly string[]): ArgumentCheck {
  if (constraint.kind === 'unknown') return { kind: 'notUnderstood', why: `the rule has a condition this version does not know (${constraint.text})` };
  const { argument } = constraint;
  if (!Object.prototype.hasOwnProperty.call(args, argument)) return { kind: 'unsatisfied', why: `the call has no "${argument}"` };
  const value = args[argument];
  if (constraint.kind === 'equals') {
    if (!isArgumentValue(value)) return { kind: 'notUnderstood', why: `"${argument}" is not a string, number, boolean or null` };
    return value === constraint.value ? { kind: 'satisfied' } : { kind: 'unsatisfied', why: `"${argument}" is not ${JSON.stringify(constraint.value)}` };
  }
  if (typeof value !== 'string') return { kind: 'notUnderstood', why: `"${argument}" is not a path (not a string)` };
  const style = styleOfAbsolute(constraint.glob);
  if (style === undefined) return { kind: 'notUnderstood', why: `the rule's pattern ${constraint.glob} is not an absolute path` };
  const read = lexicalPath(value, style, roots);
  if (!read.ok) return { kind: 'notUnderstood', why: read.why };
  const matcher = new Minimatch(constraint.glob, { ...MATCH_OPTIONS, nocase: style === 'win32' });
  return matcher.match(read.path) ? { kind: 'satisfied' } : { kind: 'unsatisfied', why: `${read.path} does not match ${constraint.glob}` };
}

export function isArgumentValue(value: unknown): value is ArgumentValue {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** A constraint as words for people: `path matches /ws/notes/**`, `mode is "fast"`. */
export function describeConstraint(constraint: ArgumentConstraint): string {
  switch (constraint.kind) {
    case 'path': {
      const folder = folderOfGlob(constraint.glob);
      if (folder !== undefined) return `${constraint.argument} is under ${folder}/ (${constraint.glob})`;
      if (!new Minimatch(constraint.glob, MATCH_OPTIONS).hasMagic()) return `${constraint.argument} is ${unescape(constraint.glob)}`;
      return `${constraint.argument} matches ${constraint.glob}`;
    }
    case 'equals': return `${constraint.argument} is ${JSON.stringify(constraint.value)}`;
    case 'unknown': return `an unknown condition (${constraint.text})`;
  }
}

/** The folder of a `<folder>/**` glob whose folder is a plain path. */
function folderOfGlob(glob: string): string | undefined {
  if (!glob.endsWith('/**')) return undefined;
  const prefix = glob.slice(0, -3);
  return prefix !== '' && !new Minimatch(prefix, MATCH_OPTIONS).hasMagic() ? unescape(prefix) : undefined;
}

/** The glob that matches exactly this lexical path. */
export function exactGlob(path: string): string {
  return escape(path, { magicalBraces: true });
}

/** The glob that matches everything under this lexical folder. */
export function underGlob(folder: string): string {
  const escaped = escape(folder, { magicalBraces: true });
  return escaped.endsWith('/') ? `${escaped}**` : `${escaped}/**`;
}

/** What the person asked "always allow" to cover, besides the tool: this file, its folder, or one argument's value. */
export type RuleNarrowing =
  | { readonly kind: 'file' }
  | { readonly kind: 'folder' }
  | { readonly kind: 'value'; readonly argument: string };

/**
 * The constraints of a narrowed rule for these (approved) arguments: `file` and `folder` constrain every
 * path argument of the call (each to itself, or to its folder), `value` the one argument. Throws with
 * the reason when the arguments do not allow it (a path that is not understood, a value that is not a scalar).
 */
export function narrowConstraints(narrowing: RuleNarrowing, args: Readonly<Record<string, unknown>>, pathArguments: readonly string[], roots: readonly string[], style: PathStyle): ArgumentConstraint[] {
  if (narrowing.kind === 'value') {
    const value = args[narrowing.argument];
    if (!Object.prototype.hasOwnProperty.call(args, narrowing.argument) || !isArgumentValue(value)) {
      throw new Error(`"${narrowing.argument}" is not a string, number, boolean or null, so a rule cannot be about its value`);
    }
    return [{ kind: 'equals', argument: narrowing.argument, value }];
  }
  if (pathArguments.length === 0) throw new Error('this call has no path argument a rule could be about');
  return pathArguments.map((argument) => {
    const value = args[argument];
    if (typeof value !== 'string') throw new Error(`"${argument}" is not a path`);
    const read = lexicalPath(value, style, roots);
    if (!read.ok) throw new Error(`a rule cannot be about "${argument}": ${read.why}`);
    return { kind: 'path', argument, glob: narrowing.kind === 'file' ? exactGlob(read.path) : underGlob(parentOf(read.path)) };
  });
}

/** Argument names that hold a path, for a tool that does not write files (e.g. a reading tool of an untrusted server). */
const PATH_NAMES = ['path', 'filePath', 'file_path', 'file', 'filename', 'fileName', 'directory', 'dir', 'folder', 'source', 'destination'];

/** The path arguments of a call: those the file preview writes through, else string arguments named like paths. */
export function pathArgumentsOf(written: readonly string[] | undefined, args: Readonly<Record<string, unknown>>): string[] {
  if (written !== undefined && written.length > 0) return [...written];
  return PATH_NAMES.filter((name) => Object.prototype.hasOwnProperty.call(args, name) && typeof args[name] === 'string');
}

/** What a card offers for "always allow" besides the whole tool: its path arguments as people read them. */
export interface RuleChoices {
  /** Each path argument with the file and the folder it names, as a person reads them (or why a rule cannot be about it). */
  readonly paths: readonly { readonly argument: string; readonly file: string; readonly folder: string }[];
}

/** The choices of a card, for these arguments; no paths when one of them cannot be read. */
export function ruleChoicesOf(args: Readonly<Record<string, unknown>>, pathArguments: readonly string[], roots: readonly string[], style: PathStyle): RuleChoices {
  const paths = [];
  for (const argument of pathArguments) {
    const value = args[argument];
    const read = typeof value === 'string' ? lexicalPath(value, style, roots) : undefined;
    if (read === undefined || !read.ok) return { paths: [] };
    const folder = displayPath(parentOf(read.path), style, roots);
    paths.push({ argument, file: displayPath(read.path, style, roots), folder: folder === 'the workspace folder' ? folder : `${folder.replace(/\/$/, '')}/` });
  }
  return { paths };
}

/** The style of the paths of this machine, read from the workspace folders (POSIX when there is none). */
export function pathStyleOf(roots: readonly string[]): PathStyle {
  return (roots[0] !== undefined ? styleOfAbsolute(roots[0]) : undefined) ?? 'posix';
}

/** A lexical path as a person reads it: relative to the workspace folder it lies in, else absolute. */
export function displayPath(path: string, style: PathStyle, roots: readonly string[]): string {
  for (const root of roots) {
    const base = lexicalPath(root, style, []);
    if (!base.ok || !isUnder(path, base.path, style)) continue;
    const relative = path.slice(base.path.length).replace(/^\//, '');
    return relative === '' ? (roots.length > 1 ? `${lastName(base.path)}/` : 'the workspace folder') : roots.length > 1 ? `${lastName(base.path)}/${relative}` : relative;
  }
  return path;
}

function lastName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Parses the `arguments` of a stored rule; throws with the field of the first malformed constraint. */
export function parseConstraints(value: unknown, at: string): ArgumentConstraint[] {
  if (!Array.isArray(value)) throw new Error(`${at}.arguments: expected an array of conditions`);
  return value.map((item, index): ArgumentConstraint => {
    const where = `${at}.arguments[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new Error(`${where}: expected an object`);
    const record = item as Record<string, unknown>;
    if (record.kind !== 'path' && record.kind !== 'equals') return { kind: 'unknown', text: clip(JSON.stringify(item) ?? '') };
    const { argument } = record;
    if (typeof argument !== 'string' || argument === '') throw new Error(`${where}.argument: expected a non-empty string`);
    if (record.kind === 'equals') {
      if (!isArgumentValue(record.value)) throw new Error(`${where}.value: expected a string, number, boolean or null`);
      return { kind: 'equals', argument, value: record.value };
    }
    return { kind: 'path', argument, glob: checkedGlob(record.glob, where) };
  });
}

function checkedGlob(glob: unknown, where: string): string {
  if (typeof glob !== 'string' || glob === '') throw new Error(`${where}.glob: expected a non-empty string`);
  const style = styleOfAbsolute(glob);
  if (style === undefined) throw new Error(`${where}.glob: expected an absolute path pattern with / separators (/home/me/notes/** or C:/Users/me/notes/**)`);
  if (style === 'win32' && glob.includes('\\')) throw new Error(`${where}.glob: write Windows patterns with / separators (C:/Users/me/notes/**)`);
  if (glob.split('/').some((part) => part === '.' || part === '..')) throw new Error(`${where}.glob: expected no . or .. segments`);
  return glob;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
