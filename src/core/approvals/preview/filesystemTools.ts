// Predictions for server-filesystem's three writing tools — what the real server will do to the disk,
// computed without touching it:
//   write_file  creates the file exclusively (a missing parent folder fails with ENOENT), or replaces an
//               existing one by an atomic rename (a folder there fails with EISDIR); content is written
//               as given, byte for byte.
//   edit_file   reads the file (missing: ENOENT, a folder: EISDIR), applies the edits (textEdits.ts) and
//               writes the result with LF line endings — unless `dryRun`, which only answers a diff.
//   move_file   validates source then destination, refuses any existing destination (even a dangling
//               link), then renames; a missing source or destination folder fails with ENOENT, a folder
//               moved into itself with EINVAL. A source that is a link moves the file it points to.
// Every path first goes through the server's validation (serverPaths.ts); its refusal is the error.
import * as path from 'node:path';
import { errorText, type PreviewFileSystem } from './fileSystemPort';
import { readFileText } from './fileText';
import { unifiedDiff } from './previewDiff';
import { insideAny, resolveServerPath, serverAllowedDirectories } from './serverPaths';
import { applyTextEdits, normalizeLineEndings, type TextEdit } from './textEdits';
import type { FileChange, FilePreview, PreviewContext } from './types';

/** The server-filesystem tools a preview predicts. */
export const FILESYSTEM_WRITE_TOOLS = ['write_file', 'edit_file', 'move_file'] as const;
export type FilesystemWriteTool = (typeof FILESYSTEM_WRITE_TOOLS)[number];

/** Whether `tool` is one of server-filesystem's writing tools. */
export function isFilesystemWriteTool(tool: string): tool is FilesystemWriteTool {
  return (FILESYSTEM_WRITE_TOOLS as readonly string[]).includes(tool);
}

/** Predicts what server-filesystem does for `tool` with `args`, given the roots it was sent. */
export async function previewFilesystemCall(tool: FilesystemWriteTool, args: unknown, context: PreviewContext): Promise<FilePreview> {
  const allowed = await serverAllowedDirectories(context.roots, context.fs);
  // With no usable root the server falls back to the folders on its own command line, which a
  // prediction cannot see: every path is outside what the person opened, and the call asks.
  if (allowed.length === 0) return refused(`no usable root: none of ${context.roots.join(', ') || '(none)'} is an existing directory`, namedPaths(args));
  // The server checks a trimmed, unquoted form of the path but writes the path itself: `/root'` or
  // `/root ` pass its check and land beside the root. Predicted as the server does it, and flagged.
  const escaped: string[] = [];
  const resolve = async (requested: string): Promise<string | FilePreview> => {
    const resolved = await resolveServerPath(requested, allowed, context.fs, context.home);
    if (!resolved.ok) return refused(resolved.error, resolved.outside ? [requested] : undefined);
    if (!insideAny(resolved.path, allowed)) escaped.push(requested);
    return resolved.path;
  };
  const preview = await predict(tool, args, context.fs, resolve);
  return escaped.length > 0 && preview.error === undefined ? { ...preview, outsideRoots: escaped } : preview;
}

/** Checks the arguments, resolves the paths in the server's order, and predicts the tool's effect. */
async function predict(tool: FilesystemWriteTool, args: unknown, fs: PreviewFileSystem, resolve: (requested: string) => Promise<string | FilePreview>): Promise<FilePreview> {
  try {
    switch (tool) {
      case 'write_file': {
        const input = writeFileArguments(args);
        if (typeof input === 'string') return refused(input);
        const target = await resolve(input.path);
        return typeof target === 'string' ? await previewWrite(target, input.content, fs) : target;
      }
      case 'edit_file': {
        const input = editFileArguments(args);
        if (typeof input === 'string') return refused(input);
        const target = await resolve(input.path);
        return typeof target === 'string' ? await previewEdit(target, input.edits, input.dryRun, fs) : target;
      }
      case 'move_file': {
        const input = moveFileArguments(args);
        if (typeof input === 'string') return refused(input);
        const source = await resolve(input.source);
        if (typeof source !== 'string') return source;
        const destination = await resolve(input.destination);
        return typeof destination === 'string' ? await previewMove(source, destination, fs) : destination;
      }
      default: {
        const never: never = tool;
        return refused(`unknown tool ${String(never)}`);
      }
    }
  } catch (error) {
    // A read the server would make fails the same way (a file it may not read, a folder that vanished).
    return refused(errorText(error));
  }
}

async function previewWrite(target: string, content: string, fs: PreviewFileSystem): Promise<FilePreview> {
  const kind = await fs.entryKind(target);
  if (kind === undefined) {
    if ((await fs.entryKind(path.dirname(target))) !== 'directory') return refused(`ENOENT: no such file or directory, open '${target}'`);
    return changed([{ path: target, kind: 'create', before: null, after: wellFormed(content) }]);
  }
  if (kind === 'directory') return refused(`EISDIR: illegal operation on a directory, rename into '${target}'`);
  const before = kind === 'file' ? (await readFileText(fs, target)).now : null;
  return changed([{ path: target, kind: 'modify', before, after: wellFormed(content) }]);
}

async function previewEdit(target: string, edits: TextEdit[], dryRun: boolean, fs: PreviewFileSystem): Promise<FilePreview> {
  const kind = await fs.entryKind(target);
  if (kind === undefined) return refused(`ENOENT: no such file or directory, open '${target}'`);
  if (kind === 'directory') return refused('EISDIR: illegal operation on a directory, read');
  // Reading a FIFO or a device would block the server as it would block the preview: say so instead.
  if (kind !== 'file') return refused(`not a regular file: ${target} (the server would wait on it)`);
  const { read, now: before } = await readFileText(fs, target);
  const edited = applyTextEdits(normalizeLineEndings(read), edits);
  if (!edited.ok) return refused(edited.error);
  if (dryRun) return { changes: [], diff: '', dryRun: true };
  return changed([{ path: target, kind: 'modify', before, after: wellFormed(edited.text) }]);
}

async function previewMove(source: string, destination: string, fs: PreviewFileSystem): Promise<FilePreview> {
  if ((await fs.entryKind(destination)) !== undefined) return refused(`Destination already exists: ${destination}`);
  const rename = `rename '${source}' -> '${destination}'`;
  const kind = await fs.entryKind(source);
  if (kind === undefined || (await fs.entryKind(path.dirname(destination))) !== 'directory') {
    return refused(`ENOENT: no such file or directory, ${rename}`);
  }
  if (kind === 'directory' && destination.startsWith(source + path.sep)) return refused(`EINVAL: invalid argument, ${rename}`);
  const text = kind === 'file' ? await fs.readText(source) : null;
  return changed([{ path: source, kind: 'move', before: text, after: text, to: destination }]);
}

/** The text as the server writes it: a lone surrogate cannot be encoded in UTF-8 and becomes U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function changed(changes: FileChange[]): FilePreview {
  return { changes, diff: unifiedDiff(changes) };
}

function refused(error: string, outsideRoots?: string[]): FilePreview {
  return outsideRoots === undefined ? { changes: [], diff: '', error } : { changes: [], diff: '', error, outsideRoots };
}

/** The paths a call names (path, source, destination), for the flag of a call with no root. */
function namedPaths(args: unknown): string[] {
  if (typeof args !== 'object' || args === null) return ['(no path)'];
  const named = ['path', 'source', 'destination'].map((key) => (args as Record<string, unknown>)[key]).filter((value): value is string => typeof value === 'string');
  return named.length > 0 ? named : ['(no path)'];
}

// Argument checks with the server's schemas in mind: extra keys are ignored, a wrong type refuses the call.
type Checked<T> = T | string;

function record(tool: string, args: unknown): Checked<Record<string, unknown>> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return `Invalid arguments for tool ${tool}: expected an object`;
  return args as Record<string, unknown>;
}

function strings<K extends string>(tool: string, args: unknown, keys: readonly K[]): Checked<Record<K, string>> {
  const object = record(tool, args);
  if (typeof object === 'string') return object;
  for (const key of keys) {
    if (typeof object[key] !== 'string') return `Invalid arguments for tool ${tool}: "${key}" must be a string`;
  }
  return object as Record<K, string>;
}

function writeFileArguments(args: unknown): Checked<{ path: string; content: string }> {
  return strings('write_file', args, ['path', 'content']);
}

function moveFileArguments(args: unknown): Checked<{ source: string; destination: string }> {
  return strings('move_file', args, ['source', 'destination']);
}

function editFileArguments(args: unknown): Checked<{ path: string; edits: TextEdit[]; dryRun: boolean }> {
  const object = strings('edit_file', args, ['path']);
  if (typeof object === 'string') return object;
  const { edits, dryRun } = object as Record<string, unknown>;
  if (!Array.isArray(edits)) return 'Invalid arguments for tool edit_file: "edits" must be an array';
  for (const [index, edit] of edits.entries()) {
    const checked = strings('edit_file', edit, ['oldText', 'newText']);
    if (typeof checked === 'string') return `${checked} (edits[${index}])`;
  }
  if (dryRun !== undefined && typeof dryRun !== 'boolean') return 'Invalid arguments for tool edit_file: "dryRun" must be a boolean';
  return { path: object.path, edits: edits as TextEdit[], dryRun: dryRun === true };
}
