// Which tool calls get a file preview, and how. In order:
//   1. A per-server setting names the tool and its path and content arguments (the user knows best).
//   2. server-filesystem (it calls itself "secure-filesystem-server") and its write_file, edit_file and
//      move_file: predicted exactly (filesystemTools.ts).
//   3. Any other tool whose input schema declares a `content`, `text` or `contents` string and a file
//      path, and whose call carries both: the path is an argument named like one (`path`, `file`,
//      `filePath`…) or, by any other declared name, an absolute path or `file:` URI inside a root.
//      Never for an open-world tool or a server that does not run on this machine: what such a tool
//      writes lands elsewhere (a commit pushed to GitHub), whatever its arguments are called. This is a
//      guess: it shows a diff and makes a write outside the roots ask, but never counts as a file edit
//      for Accept edits (only 1 and 2 do: the tools known to write local files).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { previewContentWrite } from './contentWrite';
import { isFilesystemWriteTool, previewFilesystemCall, type FilesystemWriteTool } from './filesystemTools';
import { insideAny } from './serverPaths';
import type { FilePreview, PreviewContext } from './types';

/** Where one tool finds its file: the names of its path argument and of its content argument. */
export interface FileToolArguments {
  path: string;
  content: string;
}

/**
 * One server's entry of the per-server setting: tool name → its path and content arguments, e.g.
 * `{ "save_note": { "path": "file", "content": "body" } }`. The setting itself (planned as
 * `switchboard.fileWriteTools`, server name → this map) is read by the VS Code adapter.
 */
export type ServerFileTools = Record<string, FileToolArguments>;

/** The whole planned setting: server name (as in .mcp.json) → its ServerFileTools. */
export type FileWriteToolsSetting = Record<string, ServerFileTools>;

/**
 * The setting's entry for a server. The setting names servers by name, so it describes the person's own
 * servers (user and local scope): a project or plugin server that took one of those names gets none.
 */
export function fileToolsOf(setting: FileWriteToolsSetting, server: { readonly name: string; readonly scope: string }): ServerFileTools | undefined {
  if (server.scope !== 'user' && server.scope !== 'local') return undefined;
  return Object.prototype.hasOwnProperty.call(setting, server.name) ? setting[server.name] : undefined;
}

/** How a call is previewed. */
export type FilePreviewPlan =
  | { kind: 'filesystem'; tool: FilesystemWriteTool }
  | { kind: 'content'; source: 'setting' | 'generic'; pathArgument: string; contentArgument: string };

/** The name server-filesystem gives itself in `initialize`. */
export const FILESYSTEM_SERVER_NAME = 'secure-filesystem-server';

/** What detection looks at: the server's name from `initialize`, the tool, its arguments, the setting's entry for this server. */
export interface ToolCallToPreview {
  serverInfoName: string | undefined;
  tool: string;
  args: Record<string, unknown>;
  fileTools?: ServerFileTools;
  /** The tool's input schema: the generic rule reads only arguments it declares. */
  inputSchema?: unknown;
  /** The tool's open-world hint: such a tool is never guessed to write local files. */
  openWorld?: boolean;
  /** False for a server that does not run on this machine (http, sse, ws): it writes no local file. */
  local?: boolean;
}

const CONTENT_ARGUMENTS = ['content', 'text', 'contents'];
const PATH_ARGUMENTS = ['path', 'filePath', 'file_path', 'file', 'filename', 'fileName'];

/** How to preview this call, or undefined when it does not write a file that can be predicted. */
export function detectFilePreview(call: ToolCallToPreview, roots: readonly string[]): FilePreviewPlan | undefined {
  const mapped = call.fileTools !== undefined && Object.prototype.hasOwnProperty.call(call.fileTools, call.tool) ? call.fileTools[call.tool] : undefined;
  if (mapped !== undefined) return { kind: 'content', source: 'setting', pathArgument: mapped.path, contentArgument: mapped.content };
  const local = call.local !== false;
  if (local && call.serverInfoName === FILESYSTEM_SERVER_NAME && isFilesystemWriteTool(call.tool)) return { kind: 'filesystem', tool: call.tool };
  if (!local || call.openWorld === true) return undefined;
  const declared = declaredProperties(call.inputSchema);
  const given = (name: string): boolean => declared.has(name) && typeof call.args[name] === 'string';
  const contentArgument = CONTENT_ARGUMENTS.find(given);
  if (contentArgument === undefined) return undefined;
  const pathArgument = PATH_ARGUMENTS.find(given)
    ?? Object.keys(call.args).find((name) => name !== contentArgument && declared.has(name) && isPathInside(call.args[name], roots));
  return pathArgument === undefined ? undefined : { kind: 'content', source: 'generic', pathArgument, contentArgument };
}

/**
 * How well a plan's tool is known to write local files: `exact` (server-filesystem, predicted as the
 * server does it), `mapped` (the person's setting), or undefined for a guess from argument names.
 */
export function knownLocalWriter(plan: FilePreviewPlan): 'exact' | 'mapped' | undefined {
  if (plan.kind === 'filesystem') return 'exact';
  return plan.source === 'setting' ? 'mapped' : undefined;
}

/** The property names an input schema declares at its top level (read once per listed schema: every call of the tool asks). */
function declaredProperties(schema: unknown): ReadonlySet<string> {
  if (typeof schema !== 'object' || schema === null) return NO_PROPERTIES;
  let declared = declaredBySchema.get(schema);
  if (declared === undefined) {
    const { properties } = schema as { properties?: unknown };
    declared = new Set(typeof properties === 'object' && properties !== null && !Array.isArray(properties) ? Object.keys(properties) : []);
    declaredBySchema.set(schema, declared);
  }
  return declared;
}

const NO_PROPERTIES: ReadonlySet<string> = new Set();
/** A catalog's tool definitions are replaced, never changed in place, so a schema's answer holds. */
const declaredBySchema = new WeakMap<object, ReadonlySet<string>>();

/** Predicts the call by its plan; a mapped argument that is missing or not a string is an error on the card. */
export async function previewToolCall(plan: FilePreviewPlan, args: Record<string, unknown>, context: PreviewContext): Promise<FilePreview> {
  if (plan.kind === 'filesystem') return previewFilesystemCall(plan.tool, args, context);
  const target = args[plan.pathArgument];
  const content = args[plan.contentArgument];
  if (typeof target !== 'string' || typeof content !== 'string') {
    return { changes: [], diff: '', error: `expected string arguments "${plan.pathArgument}" and "${plan.contentArgument}" (from the ${plan.source === 'setting' ? 'setting for this tool' : 'argument names'})` };
  }
  return previewContentWrite(target, content, context);
}

/** Detects and predicts in one step: undefined when the call writes no file a preview understands. */
export async function previewFileWrite(call: ToolCallToPreview, context: PreviewContext): Promise<{ plan: FilePreviewPlan; preview: FilePreview } | undefined> {
  const plan = detectFilePreview(call, context.roots);
  return plan === undefined ? undefined : { plan, preview: await previewToolCall(plan, call.args, context) };
}

function isPathInside(value: unknown, roots: readonly string[]): boolean {
  if (typeof value !== 'string') return false;
  let text = value;
  if (/^file:/i.test(text)) {
    try {
      text = fileURLToPath(text);
    } catch {
      return false;
    }
  }
  return path.isAbsolute(text) && insideAny(text, [...roots]);
}
