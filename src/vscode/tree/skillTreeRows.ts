// The Servers view shows a skill's servers under their skill: one row per SKILL.md that brings
// servers, its servers as children (with their usual rows, state and tools), placed after the other
// servers. A click on the skill opens its SKILL.md.
import * as vscode from 'vscode';
import type { EffectiveServer } from '../../core/config/types';
import type { Row } from './treeModel';

/** Moves the rows of skill servers under a row for their skill. */
export function groupSkillRows(rows: readonly Row[], servers: readonly EffectiveServer[]): Row[] {
  const skillOf = new Map(servers.filter((server) => server.skill !== undefined).map((server) => [server.id, server.skill!]));
  const groups = new Map<string, { name: string; file: string; rows: Row[] }>();
  const rest: Row[] = [];
  for (const row of rows) {
    const skill = row.data.kind === 'server' && row.data.serverId !== undefined ? skillOf.get(row.data.serverId) : undefined;
    if (skill === undefined) {
      rest.push(row);
      continue;
    }
    const group = groups.get(skill.file) ?? { name: skill.name, file: skill.file, rows: [] };
    group.rows.push(row);
    groups.set(skill.file, group);
  }
  const skillRows = [...groups.values()].map((group): Row => {
    const running = group.rows.filter((row) => row.data.state === 'ready').length;
    const count = group.rows.length === 1 ? '1 server' : `${group.rows.length} servers`;
    const description = `skill · ${count}${running > 0 ? ` · ${running} running` : ' · starts when used'}`;
    const tooltip = `Skill ${group.name} (${group.file}). Its servers start when you use it in chat (@mcp /${group.name}) and stop when it has been idle for switchboard.skills.idleStopSeconds.`;
    return {
      data: {
        id: `skill:${group.file}`, kind: 'skill', label: group.name, description, tooltip, contextValue: 'skill',
        location: { file: group.file, line: 1, column: 1 }, children: [],
      },
      icon: new vscode.ThemeIcon('book'),
      markdown: new vscode.MarkdownString().appendText(tooltip),
      children: group.rows,
    };
  });
  // Skills after the other servers, before the Problems node (which stays last).
  const problems = rest.filter((row) => row.data.kind === 'problems');
  return [...rest.filter((row) => row.data.kind !== 'problems'), ...skillRows, ...problems];
}
