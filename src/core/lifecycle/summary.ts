// The startup summary: which servers came up, which failed and why, which wait for trust.
import type { ServerState } from './state';

/** Where every server stands once startup has settled. */
export interface StartupSummary {
  ready: string[];
  failed: { id: string; error: string }[];
  needsTrust: string[];
  needsSignIn: string[];
  disabled: string[];
  stopped: string[];
}

const MAX_REASON_LENGTH = 120;

/** Groups servers by state; servers still starting, restarting or stopping are not counted. */
export function summarize(servers: readonly { id: string; state: ServerState }[]): StartupSummary {
  const summary: StartupSummary = { ready: [], failed: [], needsTrust: [], needsSignIn: [], disabled: [], stopped: [] };
  for (const { id, state } of servers) {
    switch (state.kind) {
      case 'ready': summary.ready.push(id); break;
      case 'failed': case 'crashed': summary.failed.push({ id, error: state.error }); break;
      case 'needsTrust': summary.needsTrust.push(id); break;
      case 'needsSignIn': summary.needsSignIn.push(id); break;
      case 'disabled': summary.disabled.push(id); break;
      case 'stopped': summary.stopped.push(id); break;
      case 'starting': case 'restarting': case 'stopping': break;
    }
  }
  return summary;
}

/** One log line: "MCP servers: 3 ready · 1 failed (x: command not found: npx) · 2 need trust · 1 disabled". */
export function startupSummaryLine(summary: StartupSummary): string {
  const parts: string[] = [];
  if (summary.ready.length > 0) parts.push(`${summary.ready.length} ready`);
  if (summary.failed.length > 0) {
    const reasons = summary.failed.map(({ id, error }) => `${id}: ${shorten(error)}`).join('; ');
    parts.push(`${summary.failed.length} failed (${reasons})`);
  }
  if (summary.needsTrust.length > 0) parts.push(`${summary.needsTrust.length} ${summary.needsTrust.length === 1 ? 'needs' : 'need'} trust`);
  if (summary.needsSignIn.length > 0) parts.push(`${summary.needsSignIn.length} ${summary.needsSignIn.length === 1 ? 'needs' : 'need'} sign-in`);
  if (summary.disabled.length > 0) parts.push(`${summary.disabled.length} disabled`);
  if (summary.stopped.length > 0) parts.push(`${summary.stopped.length} stopped`);
  return `MCP servers: ${parts.length > 0 ? parts.join(' · ') : 'none configured'}`;
}

function shorten(error: string): string {
  const line = error.split(/\r?\n/, 1)[0].trim();
  return line.length > MAX_REASON_LENGTH ? `${line.slice(0, MAX_REASON_LENGTH - 1)}…` : line;
}
