// The question "who hosts the servers of .mcp.json", as the person reads it in the trust moment: what
// each answer does — and which file and key it writes, before anything is written — and what happens
// when it is closed unanswered: the safe choice, VS Code's copy off, so that the first chat message does
// not make VS Code start a second copy of a project server (with no trust prompt of its own).
import type { EffectiveServer } from '../config/types';
import { names, VSCODE_COPY_OFF, type ProjectHost } from './projectHosting';

/** The key Switchboard writes to turn VS Code's copy off. */
export const VSCODE_ACCESS_KEY = 'chat.mcp.access';

/** The answers, in the order shown; closing the dialog is the safe default (HOSTING_DEFAULT). */
export const HOSTING_ANSWERS = { switchboard: 'Switchboard hosts them', vscode: 'VS Code hosts them' } as const;

/** What an unanswered question means: VS Code's own MCP does not start its copy. */
export const HOSTING_DEFAULT: ProjectHost = 'switchboard';

/** The dialog's message and detail for these overlapping servers; `settingsFile` is the file the setting goes to (as shown). */
export function hostingQuestion(overlap: readonly EffectiveServer[], settingsFile: string): { message: string; detail: string } {
  const which = names(overlap);
  const them = overlap.length === 1 ? 'it' : 'them';
  const write = `"${VSCODE_ACCESS_KEY}": "${VSCODE_COPY_OFF}"`;
  return {
    message: `VS Code's own MCP would also run ${which} from this workspace's .mcp.json, without a trust prompt: each would run twice. Who should host ${them} in this workspace?`,
    detail: [
      `${HOSTING_ANSWERS.switchboard}: writes ${write} to ${settingsFile}, which turns VS Code's copy off in this workspace (VS Code's MCP then runs only servers from its registry here).`,
      `${HOSTING_ANSWERS.vscode}: writes nothing; Switchboard does not start ${which} in this workspace.`,
      `Closed without an answer, Switchboard hosts ${them} (the same ${VSCODE_ACCESS_KEY} is written), so VS Code does not start a second copy at your first chat message.`,
      'Change it at any time: "MCP Switchboard: Choose Who Hosts Project Servers…".',
    ].join('\n\n'),
  };
}

/** What the person is told after the safe default was applied for an unanswered question. */
export function hostingDefaultNotice(overlap: readonly EffectiveServer[], settingsFile: string): string {
  return `Switchboard hosts ${names(overlap)} of this workspace's .mcp.json, as the question was closed without an answer: "${VSCODE_ACCESS_KEY}": "${VSCODE_COPY_OFF}" was written to ${settingsFile}, so VS Code's own MCP does not start a second copy. To change it, run "MCP Switchboard: Choose Who Hosts Project Servers…".`;
}
