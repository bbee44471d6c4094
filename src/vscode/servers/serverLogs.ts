// One log output channel per server ("MCP Switchboard: <id>"; VS Code's own MCP support names its
// channels "MCP: <server>", so the prefix keeps two channels of one server apart), created the first
// time something is written to it or it is shown. Everything a server's log receives — lifecycle
// events, stderr lines, the server's own log messages, the protocol trace — is scrubbed of that
// server's env and header values first, and the last lines are kept in memory (LogOutputChannel
// cannot be read back through the API).
import * as vscode from 'vscode';
import type { EffectiveServer } from '../../core/config/types';
import { redactText, secretsOf, type McpLogLevel, type ServerLog } from '../../core/lifecycle';

type ChannelLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** MCP's RFC 5424 levels on the five a log channel has. */
const CHANNEL_LEVEL: { readonly [L in McpLogLevel]: ChannelLevel } = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

/** A trace message (a whole tools/list result, say) is cut beyond this in the channel… */
const MAX_CHANNEL_TEXT = 64 * 1024;
/** …and beyond this in the in-memory tail. */
const MAX_TAIL_TEXT = 2 * 1024;
const DEFAULT_TAIL_LINES = 500;

/** The output channel name of a server's log. */
export function serverLogChannelName(id: string): string {
  return `MCP Switchboard: ${id}`;
}

export interface ServerLogsOptions {
  /** Lines kept per server (default 500). */
  maxTailLines?: number;
  /** Default `vscode.window.createOutputChannel(name, { log: true })`. */
  createChannel?: (name: string) => vscode.LogOutputChannel;
}

export class ServerLogs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();
  private readonly tails = new Map<string, string[]>();
  /**
   * Secret values per server id. Values of earlier definitions are kept: a process being stopped
   * after its definition changed may still print the old ones.
   */
  private readonly secrets = new Map<string, Set<string>>();
  private readonly maxTailLines: number;
  private disposed = false;

  constructor(private readonly options: ServerLogsOptions = {}) {
    this.maxTailLines = options.maxTailLines ?? DEFAULT_TAIL_LINES;
  }

  /** Learns the secret values of the servers' current definitions (call before they start). */
  track(servers: readonly EffectiveServer[]): void {
    for (const server of servers) {
      const known = this.secrets.get(server.id) ?? new Set<string>();
      for (const secret of secretsOf(server.launch)) known.add(secret);
      this.secrets.set(server.id, known);
    }
  }

  /** The ServerLog the lifecycle writes one server's events to. */
  logFor(server: EffectiveServer): ServerLog {
    this.track([server]);
    const id = server.id;
    return {
      info: (message) => this.write(id, 'info', message),
      warn: (message) => this.write(id, 'warn', message),
      error: (message) => this.write(id, 'error', message),
      stderr: (line) => this.write(id, 'info', `stderr: ${line}`),
      serverMessage: (level, logger, data) => {
        const text = typeof data === 'string' ? data : stringify(data);
        this.write(id, CHANNEL_LEVEL[level] ?? 'info', logger ? `[${logger}] ${text}` : text);
      },
      // Shown at info: whoever turned `switchboard.trace` on wants to see it without a second knob.
      trace: (direction, message) => this.write(id, 'info', `trace ${direction === 'send' ? '→' : '←'} ${stringify(message)}`),
    };
  }

  /** Reveals a server's channel (creating it when nothing was logged yet). */
  show(id: string, preserveFocus = true): void {
    this.channel(id)?.show(preserveFocus);
  }

  /** The last lines logged for a server, oldest first, each as `[level] text`. */
  tail(id: string): string[] {
    return [...(this.tails.get(id) ?? [])];
  }

  dispose(): void {
    this.disposed = true;
    for (const channel of this.channels.values()) channel.dispose();
    this.channels.clear();
  }

  private write(id: string, level: ChannelLevel, text: string): void {
    if (this.disposed) return;
    const clean = redactText(text, [...(this.secrets.get(id) ?? [])]);
    const tail = this.tails.get(id) ?? [];
    for (const line of clean.split(/\r?\n/)) tail.push(`[${level}] ${cut(line, MAX_TAIL_TEXT)}`);
    if (tail.length > this.maxTailLines) tail.splice(0, tail.length - this.maxTailLines);
    this.tails.set(id, tail);
    this.channel(id)?.[level](cut(clean, MAX_CHANNEL_TEXT));
  }

  private channel(id: string): vscode.LogOutputChannel | undefined {
    if (this.disposed) return undefined;
    let channel = this.channels.get(id);
    if (!channel) {
      const name = serverLogChannelName(id);
      channel = this.options.createChannel?.(name) ?? vscode.window.createOutputChannel(name, { log: true });
      this.channels.set(id, channel);
    }
    return channel;
  }
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}
