// Why the gate refuses a call, as an error type with a code for programs and a message for a person:
// each message names the tool, the server and what to do about it.
import type { EffectiveServer } from '../config/types';
import type { ToolFilterVerdict } from '../config/toolFilter';
import { ServerState } from '../lifecycle/state';
import type { RefusedTool, ToolInfo } from '../lifecycle/types';
import type { ToolCallRefusalCode, ToolCallStatus } from './types';

export type { ToolCallRefusalCode } from './types';
import { didYouMean } from '../naming/suggestions';


/** A call the gate refused; nothing reached the server. */
export class ToolCallRefusedError extends Error {
  override readonly name = 'ToolCallRefusedError';

  constructor(readonly code: ToolCallRefusalCode, readonly serverId: string, readonly tool: string, message: string) {
    super(message);
  }
}

/** The caller stopped waiting for a call running as a task; the task goes on and its result is announced when it comes. */
export class TaskDetachedError extends Error {
  override readonly name = 'TaskDetachedError';

  constructor(readonly serverId: string, readonly tool: string) {
    super(`stopped waiting for tool '${tool}' of server '${serverId}': it runs on as a task (see Tasks in the MCP Switchboard sidebar), and its result will be shown when it is ready`);
  }
}

/** No server has this id. */
export function unknownServer(serverId: string, tool: string, known: readonly string[]): ToolCallRefusedError {
  const hint = didYouMean(serverId, known);
  const detail = hint ?? ` (configured: ${known.length > 0 ? known.join(', ') : 'none'})`;
  return new ToolCallRefusedError('unknownServer', serverId, tool, `unknown server '${serverId}'${detail}`);
}

/** The server is configured but not ready (stopped, starting, failed, waiting for trust, disabled…). */
export function serverNotReady(server: EffectiveServer, state: ServerState, tool: string): ToolCallRefusedError {
  let why: string;
  if (state.kind === 'disabled') why = state.reason !== undefined ? `not started here: ${state.reason}` : `disabled: "disabled": true in ${server.source.file}:${server.source.line}`;
  else if (state.kind === 'needsTrust') why = `needs trust: a project server runs only once you trust its definition (${server.source.file})`;
  else {
    const reason = ServerState.reason(state);
    why = reason === undefined ? ServerState.label(state) : `${ServerState.label(state)}: ${reason}`;
  }
  return new ToolCallRefusedError('serverNotReady', server.id, tool, `server '${server.id}' is not ready (${why})`);
}

/**
 * The entry's allowedTools/disabledTools hide the tool. `offered` (the tools the server offers now) lets
 * a name missing from allowedTools that is only a typo of an offered tool say "did you mean".
 */
export function toolFiltered(
  server: EffectiveServer, tool: string, verdict: Exclude<ToolFilterVerdict, { offered: true }>, offered: readonly ToolInfo[],
): ToolCallRefusedError {
  const file = server.source.file;
  const message = verdict.field === 'disabledTools'
    ? `tool '${tool}' of server '${server.id}' is disabled by disabledTools in ${file}${verdict.pattern === tool ? '' : ` (pattern "${verdict.pattern}")`}`
    : `tool '${tool}' of server '${server.id}' is not in allowedTools in ${file}${didYouMean(tool, offered.map((candidate) => candidate.name)) ?? ''}`;
  return new ToolCallRefusedError('toolFiltered', server.id, tool, message);
}

/** The server does not list the tool (`offered` are the tools it does offer; `refused`, those the host refused to take from its listing). */
export function unknownTool(serverId: string, tool: string, offered: readonly ToolInfo[], refused: readonly RefusedTool[] = []): ToolCallRefusedError {
  const refusal = refused.find((candidate) => candidate.name === tool);
  if (refusal !== undefined) {
    return new ToolCallRefusedError('unknownTool', serverId, tool, `the tool '${tool}' of '${serverId}' is refused: ${refusal.reason}`);
  }
  if (offered.length === 0) {
    return new ToolCallRefusedError('unknownTool', serverId, tool, `unknown tool '${tool}' of server '${serverId}': the server offers no tools`);
  }
  const names = offered.map((candidate) => candidate.name);
  const hint = didYouMean(tool, names) ?? ` (it offers: ${listOf(names)})`;
  return new ToolCallRefusedError('unknownTool', serverId, tool, `unknown tool '${tool}' of server '${serverId}'${hint}`);
}

/** The poisoning scan flagged the tool and blocking is on. */
export function toolBlocked(serverId: string, tool: string, status: ToolCallStatus): ToolCallRefusedError {
  const reasons = [...new Set(status.findings.map((finding) => finding.reason))].join('; ');
  return new ToolCallRefusedError('toolBlocked', serverId, tool,
    `tool '${tool}' of server '${serverId}' is blocked: its definition looks like instructions aimed at the model (${reasons}). `
    + 'Review it in the MCP Switchboard Servers view; flagged tools are blocked while the user setting switchboard.blockFlaggedTools is on.');
}

/** The tool's definition changed since it was pinned and nobody accepted the new one. */
export function toolChanged(serverId: string, tool: string): ToolCallRefusedError {
  return new ToolCallRefusedError('toolChanged', serverId, tool,
    `tool '${tool}' of server '${serverId}' changed since its definition was pinned, and nobody accepted the new one: `
    + 'review it with "MCP Switchboard: Review Tool Change" and accept it to call it again.');
}

/** The decision step said no. */
export function callDenied(serverId: string, tool: string, reason: string): ToolCallRefusedError {
  return new ToolCallRefusedError('denied', serverId, tool, `the call of tool '${tool}' of server '${serverId}' was refused: ${reason}`);
}

const LISTED = 12;

/** Every name, or the first twelve and how many more (never "and 1 more": a short tail is listed). */
function listOf(names: readonly string[]): string {
  return names.length <= LISTED + 3 ? names.join(', ') : `${names.slice(0, LISTED).join(', ')} and ${names.length - LISTED} more`;
}
