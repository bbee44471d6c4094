// Tool results on their way to a model: `switchboard.maxToolOutputChars` read as a typed setting, and
// the results over it saved whole in the extension's storage (the model gets the head and the path),
// readable by their owner only and removed after `switchboard.toolOutputRetentionDays`.
import * as vscode from 'vscode';
import { DEFAULT_MAX_TOOL_OUTPUT_CHARS, limitToolOutput, type LimitedOutput } from '../../core/chat/outputLimit';
import type { CallToolResult, ToolInfo } from '../../core/lifecycle';
import { removeExpired, writeOwnerOnly } from '../../node/toolOutputFiles';

export const MAX_TOOL_OUTPUT_SETTING = 'switchboard.maxToolOutputChars';
/** Below this a limit would leave no room for the notice that says where the rest is. */
const MIN_LIMIT = 1000;

export const RETENTION_SETTING = 'switchboard.toolOutputRetentionDays';
const DEFAULT_RETENTION_DAYS = 7;
const DAY_MS = 86_400_000;

/** How long a saved result is kept, in days; an unusable value falls back to the default. */
export function readToolOutputRetentionDays(): number {
  const value = vscode.workspace.getConfiguration().get<unknown>(RETENTION_SETTING);
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_RETENTION_DAYS;
}

/** The configured limit; an unusable value falls back to the default. */
export function readMaxToolOutputChars(): number {
  const value = vscode.workspace.getConfiguration().get<unknown>(MAX_TOOL_OUTPUT_SETTING);
  return typeof value === 'number' && Number.isFinite(value) && value >= MIN_LIMIT ? Math.floor(value) : DEFAULT_MAX_TOOL_OUTPUT_CHARS;
}

/** Where large results go: a folder of this workspace's storage (or the global one without a workspace). */
export class ToolOutputStore {
  private counter = 0;

  constructor(private readonly folder: vscode.Uri) {}

  /** Limits one tool's result, saving it whole when it is over the limit. */
  limit(serverId: string, tool: ToolInfo, result: CallToolResult): Promise<LimitedOutput> {
    return limitToolOutput(result, {
      maxChars: readMaxToolOutputChars(),
      toolMeta: tool._meta,
      hasOutputSchema: tool.outputSchema !== undefined,
      save: (text) => this.save(serverId, tool.name, text),
    });
  }

  /** Writes `text` to a new file (owner only) named for the server, tool and time; resolves with its path. */
  async save(serverId: string, toolName: string, text: string): Promise<string> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = await writeOwnerOnly(this.folder.fsPath, `${stamp}-${++this.counter}-${safe(serverId)}-${safe(toolName)}.txt`, text);
    // Old results go as new ones come; one that cannot be removed now is tried again at the next save.
    await this.removeExpired().catch(() => []);
    return file;
  }

  /** Deletes the saved results older than the retention period; resolves with their names. */
  removeExpired(): Promise<string[]> {
    return removeExpired(this.folder.fsPath, readToolOutputRetentionDays() * DAY_MS);
  }
}

function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60);
}
