// Tool results on their way to a model: `switchboard.maxToolOutputChars` read as a typed setting, and
// the results over it saved whole in the extension's storage (the model gets the head and the path).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_MAX_TOOL_OUTPUT_CHARS, limitToolOutput, type LimitedOutput } from '../../core/chat';
import type { CallToolResult, ToolInfo } from '../../core/lifecycle';

export const MAX_TOOL_OUTPUT_SETTING = 'switchboard.maxToolOutputChars';
/** Below this a limit would leave no room for the notice that says where the rest is. */
const MIN_LIMIT = 1000;

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

  /** Writes `text` to a new file named for the server, tool and time; resolves with its path. */
  async save(serverId: string, toolName: string, text: string): Promise<string> {
    const dir = this.folder.fsPath;
    await fs.mkdir(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(dir, `${stamp}-${++this.counter}-${safe(serverId)}-${safe(toolName)}.txt`);
    await fs.writeFile(file, text, 'utf8');
    return file;
  }
}

function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60);
}
