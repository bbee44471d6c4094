// `switchboard preview --root DIR --tool TOOL --args 'JSON'`: predicts what one of server-filesystem's
// writing tools will do — the files it changes, their unified diff, or why the server will refuse —
// without calling any server and without writing anything. The JSON shape is a contract other tools
// read: keys in this order, `to` only on a move, `error` only when the server would refuse,
// `outsideRoots` only when a write the server accepts lands outside every root.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FILESYSTEM_WRITE_TOOLS, isFilesystemWriteTool, previewFilesystemCall, type FileChange, type FilePreview } from '../core/approvals/preview';
import { nodePreviewFileSystem } from '../node/previewFileSystem';
import { PROGRAM, UsageError, type Command } from './command';

const PREVIEW_HELP = `Usage: ${PROGRAM} preview --root DIR [--root DIR2 ...] --tool TOOL --args 'JSON'

Predicts what a call of @modelcontextprotocol/server-filesystem's tool TOOL (one of
${FILESYSTEM_WRITE_TOOLS.join(', ')}) with the arguments JSON would change, for a server whose roots
are the DIRs (what MCP Switchboard sends it: the workspace folders). Reads files only;
calls no server and writes nothing.

Prints one JSON object:
  {
    "changes": [ { "path": absolute, "kind": "create" | "modify" | "move",
                   "before": string | null, "after": string | null, "to"?: absolute } ],
    "diff": string,
    "error"?: string,
    "outsideRoots"?: [ string ]
  }
  path      the file the server writes (or moves), symbolic links resolved as it does
  before    its text now (null: nothing there, or a folder that moves)
  after     its text after the call (edit_file writes LF line endings)
  to        where a move puts it
  diff      unified diff of every change ("" when nothing changes)
  error     why the server would refuse the call (a path outside every root or
            through a link that escapes them, a missing parent folder, an edit
            that matches nothing, an existing move destination...); then
            "changes" is empty. An edit_file with "dryRun": true changes nothing.
  before    (for a file that is not valid UTF-8) each invalid byte is shown as
            \\xNN: the server writes such a file back with U+FFFD in its place, so
            those lines show as changed.
  outsideRoots  only when the call would write outside every root although the
            server accepts it (a path with a trailing quote or space the server
            trims before checking, but not before writing): the paths as the call
            names them.

Options:
  --root DIR       A root of the server (repeat for several). Must be an existing folder.
  --tool TOOL      ${FILESYSTEM_WRITE_TOOLS.join(', ')}.
  --args JSON      The call's arguments, a JSON object.
  -h, --help       Show this help.

Exit status: 0 when the call would succeed inside the roots; 1 when the server would
refuse it or it writes outside every root (the JSON, with "error" or "outsideRoots",
is still printed); 2 for a usage error.
`;

export const previewCommand: Command = {
  name: 'preview',
  summary: 'Predict what a server-filesystem write_file, edit_file or move_file call would change',
  help: PREVIEW_HELP,
  flags: {
    root: { kind: 'string', repeat: true, meta: 'DIR' },
    tool: { kind: 'string', meta: 'TOOL' },
    args: { kind: 'string', meta: 'JSON' },
  },
  async run(args, io) {
    const roots = args.strings('root').map((root) => path.resolve(io.cwd, root));
    if (roots.length === 0) throw new UsageError('missing --root DIR', 'preview');
    for (const root of roots) {
      if (!isDirectory(root)) throw new UsageError(`--root ${root}: not an existing folder`, 'preview');
    }
    const tool = args.string('tool');
    if (tool === undefined) throw new UsageError('missing --tool TOOL', 'preview');
    if (!isFilesystemWriteTool(tool)) throw new UsageError(`--tool ${tool}: expected one of ${FILESYSTEM_WRITE_TOOLS.join(', ')}`, 'preview');
    const toolArgs = parseArguments(args.string('args'));
    const preview = await previewFilesystemCall(tool, toolArgs, { roots, fs: nodePreviewFileSystem, home: os.homedir() });
    io.out(`${JSON.stringify(contract(preview), null, 2)}\n`);
    return preview.error === undefined && (preview.outsideRoots?.length ?? 0) === 0 ? 0 : 1;
  },
};

function parseArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined) throw new UsageError("missing --args 'JSON'", 'preview');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, 'preview');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('--args must be a JSON object', 'preview');
  return value as Record<string, unknown>;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The printed object: exactly the contract's keys, in its order. */
function contract(preview: FilePreview): { changes: FileChange[]; diff: string; error?: string; outsideRoots?: string[] } {
  const changes = preview.changes.map((change): FileChange => {
    const entry: FileChange = { path: change.path, kind: change.kind, before: change.before, after: change.after };
    if (change.to !== undefined) entry.to = change.to;
    return entry;
  });
  return {
    changes,
    diff: preview.diff,
    ...(preview.error !== undefined ? { error: preview.error } : {}),
    // A refusal already says why in "error"; the flag is for a write that would land outside.
    ...(preview.error === undefined && (preview.outsideRoots?.length ?? 0) > 0 ? { outsideRoots: [...(preview.outsideRoots ?? [])] } : {}),
  };
}
