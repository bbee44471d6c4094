// The prediction for a tool of any server that writes a whole file from its arguments — found by a
// per-server setting or by the generic rule (detection.ts): the file at the path will hold the content.
// Nothing about that server's own checks is known, so nothing is refused on its behalf; a path outside
// every root — by its text or through a symbolic link — is flagged instead.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCode, errorText, type PreviewFileSystem } from './fileSystemPort';
import { unifiedDiff } from './previewDiff';
import { insideAny } from './serverPaths';
import type { FileChange, FilePreview, PreviewContext } from './types';

/** Predicts writing `content` to the file `requested` names (absolute, `file:` URI, `~/…`, or relative to the first root). */
export async function previewContentWrite(requested: string, content: string, context: PreviewContext): Promise<FilePreview> {
  const target = resolveRequested(requested, context);
  if (target === undefined) return { changes: [], diff: '', error: `cannot tell which file "${requested}" names` };
  try {
    const real = await realTarget(target, context.fs);
    const roots = await realRoots(context);
    const outside = !insideAny(target, context.roots) || !insideAny(real, roots);
    const kind = await context.fs.entryKind(real);
    if (kind === 'directory') return withFlag({ changes: [], diff: '', error: `${real} is a directory` }, outside, requested);
    const before = kind === 'file' ? await context.fs.readText(real) : null;
    const change: FileChange = kind === undefined
      ? { path: real, kind: 'create', before: null, after: content }
      : { path: real, kind: 'modify', before, after: content };
    return withFlag({ changes: [change], diff: unifiedDiff([change]) }, outside, requested);
  } catch (error) {
    return { changes: [], diff: '', error: errorText(error) };
  }
}

function resolveRequested(requested: string, context: PreviewContext): string | undefined {
  let text = requested;
  if (/^file:/i.test(text)) {
    try {
      text = fileURLToPath(text);
    } catch {
      return undefined;
    }
  }
  if (text === '~' || text.startsWith('~/')) text = path.join(context.home, text.slice(1));
  if (path.isAbsolute(text)) return path.resolve(text);
  const base = context.roots[0];
  return base === undefined ? undefined : path.resolve(base, text);
}

/** The real path the write lands on: the nearest existing ancestor resolved, the rest appended. */
async function realTarget(target: string, fs: PreviewFileSystem): Promise<string> {
  try {
    return await fs.realpath(target);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    const parent = path.dirname(target);
    if (parent === target) return target;
    return path.join(await realTarget(parent, fs), path.basename(target));
  }
}

async function realRoots(context: PreviewContext): Promise<string[]> {
  const roots: string[] = [];
  for (const root of context.roots) {
    try {
      roots.push(await context.fs.realpath(root));
    } catch {
      // A root that does not exist holds nothing.
    }
  }
  return roots;
}

function withFlag(preview: FilePreview, outside: boolean, requested: string): FilePreview {
  return outside ? { ...preview, outsideRoots: [requested] } : preview;
}
