// Reviewing tools: "Review Tool Change" opens the pinned and the new definition of a changed tool
// side by side (two read-only `switchboard-tool:` documents of pretty JSON in a diff editor), or the
// definition of a new or flagged tool, and "Accept New Definition" makes what the server lists now the
// pin. Also the `switchboard.blockFlaggedTools` setting, which only the user's own settings can set.
import * as vscode from 'vscode';
import type { ServerView } from '../../core/lifecycle';
import { revealHiddenCharacters } from '../../core/sidebarSnapshot';
import { diffToolDefinitions, formatToolDefinitionDiff, pinnedDefinition, type PinnedDefinition, type ToolReview } from '../../core/toolReview';
import { confirm } from '../ui/dialogs';
import { notifyInfo, notifyWarning } from '../ui/notify';
import { registerReportingCommand } from '../reportingCommand';

export const TOOL_REVIEW_COMMANDS = {
  review: 'switchboard.reviewToolChange',
  accept: 'switchboard.acceptToolChange',
} as const;

/** The scheme of the read-only tool definition documents. */
export const TOOL_DOCUMENT_SCHEME = 'switchboard-tool';

export const BLOCK_FLAGGED_SETTING = 'blockFlaggedTools';

/**
 * Whether flagged tools are blocked. Only the user's own value counts (the setting has `application`
 * scope, and workspace values are ignored here too): a repository must not be able to turn protection off.
 */
export function readBlockFlaggedTools(): boolean {
  return vscode.workspace.getConfiguration('switchboard').inspect<boolean>(BLOCK_FLAGGED_SETTING)?.globalValue === true;
}

/** Calls `listener` when `switchboard.blockFlaggedTools` changed. */
export function onDidChangeBlockFlaggedTools(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(`switchboard.${BLOCK_FLAGGED_SETTING}`)) listener();
  });
}

/** A tool of a server, as commands receive it. */
export interface ToolRef {
  serverId: string;
  tool: string;
}

type Side = 'pinned' | 'current';

export interface ToolReviewDeps {
  review: ToolReview;
  /** The servers (the ServerRegistry). */
  get(serverId: string): ServerView | undefined;
  list(): ServerView[];
  log: vscode.LogOutputChannel;
  /** Under an extension test run: a failed command rejects (see registerReportingCommand). */
  testing: boolean;
}

/** What Review Tool Change opened, for tests. */
export interface ReviewResult {
  kind: 'diff' | 'definition';
  uris: string[];
  summary: string[];
}

export function registerToolReview(deps: ToolReviewDeps): vscode.Disposable {
  const { review, log } = deps;
  const provider = new ToolDefinitionProvider(deps);
  const register = (id: string, run: (...args: unknown[]) => Promise<unknown>) => registerReportingCommand(id, run, deps);

  const accept = async (ref: ToolRef): Promise<boolean> => {
    const wasChanged = review.pendingChange(ref.serverId, ref.tool) !== undefined;
    const name = revealHiddenCharacters(ref.tool);
    const question = wasChanged ? `Accept the new definition of tool "${name}" of ${ref.serverId}?` : `Mark tool "${name}" of ${ref.serverId} as reviewed?`;
    const detail = wasChanged
      ? 'What the server lists now becomes the definition you accepted, and its automatic approvals apply again. Review the change first (Review Tool Change).'
      : 'It is no longer marked as new or flagged.';
    if (!await confirm(question, detail, wasChanged ? 'Accept New Definition' : 'Mark as Reviewed')) return false;
    await review.accept(ref.serverId, ref.tool);
    log.info(`${ref.serverId}: ${wasChanged ? 'accepted the new definition of' : 'reviewed'} tool ${JSON.stringify(ref.tool)}`);
    return true;
  };

  return vscode.Disposable.from(
    provider,
    vscode.workspace.registerTextDocumentContentProvider(TOOL_DOCUMENT_SCHEME, provider),
    register(TOOL_REVIEW_COMMANDS.review, async (target?: unknown, tool?: unknown) => {
      const ref = toolRefOf(target, tool) ?? await pickTool(deps);
      if (!ref) return undefined;
      return openReview(deps, ref, accept);
    }),
    register(TOOL_REVIEW_COMMANDS.accept, async (target?: unknown, tool?: unknown) => {
      const ref = toolRefOf(target, tool) ?? await pickTool(deps, true);
      if (!ref) return false;
      return accept(ref);
    }),
  );
}

async function openReview(deps: ToolReviewDeps, ref: ToolRef, accept: (ref: ToolRef) => Promise<boolean>): Promise<ReviewResult> {
  const { review } = deps;
  const name = revealHiddenCharacters(ref.tool);
  const change = review.pendingChange(ref.serverId, ref.tool);
  if (change) {
    const left = toolUri(ref, 'pinned');
    const right = toolUri(ref, 'current');
    const summary = formatToolDefinitionDiff(diffToolDefinitions(change.old, change.new)).map(revealHiddenCharacters);
    await vscode.commands.executeCommand('vscode.diff', left, right, `${name} (${ref.serverId}): accepted ↔ now listed`, { preview: false });
    // Not awaited: the command resolves once the diff is open; the answer comes whenever the person decides.
    void notifyWarning(
      `Tool "${name}" of ${ref.serverId} changed since you accepted it (${summary.join('; ')}). Its automatic approvals are suspended until you accept the new definition.`,
      'Accept New Definition',
    ).then((choice) => (choice === undefined ? false : accept(ref)));
    return { kind: 'diff', uris: [left.toString(), right.toString()], summary };
  }
  const status = review.status(ref.serverId, ref.tool);
  if (!status) throw new Error(`${ref.serverId} does not list a tool named ${JSON.stringify(ref.tool)} now (is it running?).`);
  const uri = toolUri(ref, 'current');
  await vscode.window.showTextDocument(uri, { preview: false });
  const summary = status.findings.map((finding) => revealHiddenCharacters(`${finding.reason} (matched: ${finding.match})`));
  if (status.new) {
    void notifyInfo(`Tool "${name}" appeared on ${ref.serverId} after its tools were first seen.${summary.length > 0 ? ` Flagged: ${summary.join('; ')}.` : ''}`, 'Mark as Reviewed')
      .then((choice) => (choice === undefined ? false : accept(ref)));
  }
  return { kind: 'definition', uris: [uri.toString()], summary };
}

/** Read-only JSON of a tool's pinned or current definition. */
class ToolDefinitionProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: { dispose(): void };

  constructor(private readonly deps: ToolReviewDeps) {
    // After an accept or a new listing the documents show the new state.
    this.subscription = deps.review.onDidChange(() => {
      for (const document of vscode.workspace.textDocuments) {
        if (document.uri.scheme === TOOL_DOCUMENT_SCHEME) this.changed.fire(document.uri);
      }
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const parsed = parseToolUri(uri);
    if (!parsed) return '// not a tool definition\n';
    const { ref, side } = parsed;
    const change = this.deps.review.pendingChange(ref.serverId, ref.tool);
    let definition: PinnedDefinition | undefined;
    if (change) definition = side === 'pinned' ? change.old : change.new;
    else {
      const tool = this.deps.get(ref.serverId)?.catalog.tools.find((candidate) => candidate.name === ref.tool);
      definition = tool && pinnedDefinition(tool);
    }
    if (!definition) return `// ${ref.serverId} does not list a tool named ${JSON.stringify(ref.tool)} now\n`;
    return `${safeJson(definition)}\n`;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/**
 * Pretty JSON in which characters that hide or reorder text (zero-width, bidi controls, Unicode tags…)
 * are written as `\uXXXX` escapes: still the same JSON value, but visible.
 */
export function safeJson(value: unknown): string {
  let out = '';
  for (const ch of JSON.stringify(value, null, 2)) {
    const cp = ch.codePointAt(0) ?? 0;
    if (!HIDDEN_RANGES.some(([low, high]) => cp >= low && cp <= high)) { out += ch; continue; }
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

// C1 controls, soft hyphen, Arabic letter mark, Mongolian vowel separator, zero-width and bidi controls,
// word joiners and invisible operators, variation selectors, BOM, interlinear annotations and tags.
// (JSON.stringify already escapes C0 controls inside strings.)
const HIDDEN_RANGES: readonly (readonly [number, number])[] = [
  [0x007f, 0x009f], [0x00ad, 0x00ad], [0x061c, 0x061c], [0x180e, 0x180e], [0x200b, 0x200f], [0x202a, 0x202e],
  [0x2060, 0x206f], [0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0xfff9, 0xfffb], [0xe0000, 0xe007f], [0xe0100, 0xe01ef],
];

export function toolUri(ref: ToolRef, side: Side): vscode.Uri {
  const label = revealHiddenCharacters(ref.tool).replace(/[\\/]/g, '_');
  return vscode.Uri.from({
    scheme: TOOL_DOCUMENT_SCHEME,
    path: `/${label} (${side === 'pinned' ? 'accepted' : 'now'}).json`,
    query: JSON.stringify({ serverId: ref.serverId, tool: ref.tool, side }),
  });
}

function parseToolUri(uri: vscode.Uri): { ref: ToolRef; side: Side } | undefined {
  if (uri.scheme !== TOOL_DOCUMENT_SCHEME) return undefined;
  try {
    const query = JSON.parse(uri.query) as { serverId?: unknown; tool?: unknown; side?: unknown };
    if (typeof query.serverId !== 'string' || typeof query.tool !== 'string') return undefined;
    return { ref: { serverId: query.serverId, tool: query.tool }, side: query.side === 'pinned' ? 'pinned' : 'current' };
  } catch {
    return undefined;
  }
}

/** A tool from command arguments: (serverId, tool), {serverId, tool}, a tree row, or a tool document's uri (editor title). */
function toolRefOf(target: unknown, tool: unknown): ToolRef | undefined {
  if (typeof target === 'string' && typeof tool === 'string') return { serverId: target, tool };
  if (target instanceof vscode.Uri) return parseToolUri(target)?.ref;
  const ref = target as Partial<ToolRef> | undefined;
  if (typeof ref?.serverId === 'string' && typeof ref.tool === 'string') return { serverId: ref.serverId, tool: ref.tool };
  const data = (target as { data?: { serverId?: unknown; toolName?: unknown } } | undefined)?.data;
  if (typeof data?.serverId === 'string' && typeof data.toolName === 'string') return { serverId: data.serverId, tool: data.toolName };
  return undefined;
}

/** Lets the person pick among the tools that need a look (changed first). */
async function pickTool(deps: ToolReviewDeps, acceptable = false): Promise<ToolRef | undefined> {
  const items: (vscode.QuickPickItem & { ref: ToolRef; rank: number })[] = [];
  for (const view of deps.list()) {
    for (const tool of view.catalog.tools) {
      const status = deps.review.status(view.id, tool.name);
      if (!status) continue;
      const words = [status.changed && 'changed', status.new && 'new', status.findings.length > 0 && (status.blocked ? 'blocked' : 'flagged')].filter((w): w is string => !!w);
      if (words.length === 0 || (acceptable && !status.changed && !status.new)) continue;
      items.push({ label: revealHiddenCharacters(tool.name), description: `${view.id} · ${words.join(' · ')}`, ref: { serverId: view.id, tool: tool.name }, rank: status.changed ? 0 : 1 });
    }
  }
  if (items.length === 0) {
    void notifyInfo('No tool has changed, appeared or been flagged since it was first seen.');
    return undefined;
  }
  items.sort((a, b) => a.rank - b.rank);
  const picked = await vscode.window.showQuickPick(items, { placeHolder: acceptable ? 'Accept the new definition of which tool?' : 'Review which tool?', matchOnDescription: true });
  return picked?.ref;
}
