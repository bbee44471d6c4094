// The catalog rows under a ready server: "Tools (N)", "Resources (N)", … with their items, and a tool
// row with a warning when the tool is changed, new, flagged or blocked.
import * as vscode from 'vscode';
import { CATALOG_KINDS, type Catalog, type CatalogKind } from '../../core/lifecycle';
import { revealHiddenCharacters } from '../../core/sidebarSnapshot';
import type { ToolStatus } from '../../core/toolReview/toolReview';
import { shortReason } from './stateIcons';
import type { Row, ToolStatusSource } from './treeModel';
import { plainMarkdown } from './treeTooltips';

export const CATALOG_GROUPS: { readonly [K in CatalogKind]: { title: string; noun: string; icon: string; itemIcon: string } } = {
  tools: { title: 'Tools', noun: 'tool', icon: 'tools', itemIcon: 'symbol-method' },
  resources: { title: 'Resources', noun: 'resource', icon: 'files', itemIcon: 'file' },
  resourceTemplates: { title: 'Resource templates', noun: 'resource template', icon: 'file-symlink-file', itemIcon: 'symbol-file' },
  prompts: { title: 'Prompts', noun: 'prompt', icon: 'comment-discussion', itemIcon: 'comment' },
};

/** "Tools (N)", "Resources (N)", … for the kinds a ready server has items of, each with its items. */
export function catalogRows(serverId: string, catalog: Catalog, tools: ToolStatusSource | undefined): Row[] {
  return CATALOG_KINDS.filter((kind) => catalog[kind].length > 0).map((kind): Row => {
    const group = CATALOG_GROUPS[kind];
    const items = catalog[kind].map((item, index): Row => {
      const name = revealHiddenCharacters(item.name);
      const detail = 'uriTemplate' in item ? item.uriTemplate : 'uri' in item ? item.uri : undefined;
      const title = item.title && item.title !== item.name ? revealHiddenCharacters(item.title) : undefined;
      const description = item.description ? revealHiddenCharacters(item.description).trim() : '';
      const tooltip = [title ?? name, detail, description].filter((t): t is string => !!t).join('\n');
      const status = kind === 'tools' ? tools?.status(serverId, item.name) : undefined;
      if (status && isMarked(status)) return toolRow(serverId, index, item.name, tooltip, status);
      return {
        data: {
          // The index keeps ids unique even when a server lists a name twice.
          id: `catalog:${serverId}:${kind}:${index}:${detail ?? item.name}`,
          kind: 'catalogItem',
          serverId,
          // Tool rows carry the exact name, for their Call action.
          ...(kind === 'tools' ? { toolName: item.name } : {}),
          label: name,
          description: detail !== undefined ? revealHiddenCharacters(detail) : shortReason(title ?? description, 60),
          tooltip,
          contextValue: kind === 'tools' ? 'catalogItem catalog-tools tool' : `catalogItem catalog-${kind}`,
          children: [],
        },
        icon: new vscode.ThemeIcon(group.itemIcon),
        markdown: plainMarkdown(tooltip),
        children: [],
      };
    });
    const label = `${group.title} (${items.length})`;
    return {
      data: {
        id: `catalog:${serverId}:${kind}`,
        kind: 'catalog',
        serverId,
        label,
        description: '',
        tooltip: `${label} offered by ${serverId}`,
        contextValue: `catalog catalog-${kind}`,
        children: [],
      },
      icon: new vscode.ThemeIcon(group.icon),
      markdown: plainMarkdown(`${label} offered by ${serverId}`),
      children: items,
    };
  });
}

function isMarked(status: ToolStatus): boolean {
  return status.changed || status.new || status.findings.length > 0;
}

/** A tool row with a warning: changed, new, flagged or blocked, and why, in its tooltip. */
function toolRow(serverId: string, index: number, toolName: string, about: string, status: ToolStatus): Row {
  const words = [status.blocked && 'blocked', status.changed && 'changed', status.new && 'new', status.findings.length > 0 && !status.blocked && 'flagged']
    .filter((word): word is string => !!word);
  const lines = [about, ''];
  if (status.changed) lines.push('Changed: its definition differs from the one you accepted. Automatic approvals of it are suspended until you review and accept the new one (Review Tool Change).');
  if (status.new) lines.push('New: it appeared after this server\'s tools were first seen.');
  for (const finding of status.findings) {
    const where = finding.path ? `${finding.field} ${finding.path}` : finding.field;
    lines.push(`Flagged (${revealHiddenCharacters(where)}): ${revealHiddenCharacters(finding.reason)} — matched: ${revealHiddenCharacters(finding.match)}`);
  }
  if (status.blocked) lines.push('Blocked: calls to it are refused while the setting switchboard.blockFlaggedTools is on.');
  const context = ['catalogItem', 'catalog-tools', 'tool'];
  if (status.changed) context.push('toolChanged');
  if (status.new) context.push('toolNew');
  if (status.findings.length > 0) context.push('toolFlagged');
  if (status.blocked) context.push('toolBlocked');
  const tooltip = lines.join('\n');
  return {
    data: {
      id: `catalog:${serverId}:tools:${index}:${toolName}`,
      kind: 'catalogItem',
      serverId,
      toolName,
      label: revealHiddenCharacters(toolName),
      description: words.join(' · '),
      tooltip,
      contextValue: context.join(' '),
      children: [],
    },
    icon: status.blocked
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'))
      : new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
    markdown: plainMarkdown(tooltip),
    children: [],
  };
}
