// The Servers tree's model: the plain data of a row, the sources the tree reads, and the row as the
// provider holds it. Its own module so that the tree provider and the row builders (server rows, tool
// rows) depend on it and never on each other.
import type * as vscode from 'vscode';
import type { ConfigSnapshot } from '../../core/config';
import type { EffectiveServer } from '../../core/config/types';
import type { Event as CoreEvent } from '../../core/event';
import type { ServerState, ServerView } from '../../core/lifecycle';
import type { DangerFlag, PromptHoldReason, TrustDecision } from '../../core/trust';
import type { ToolStatus } from '../../core/toolReview/toolReview';

export const REVEAL_SOURCE_COMMAND = 'switchboard.revealServerSource';

/** What `switchboard.revealServerSource` accepts from a row: a position in a file. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

/** One row of the tree as plain data (what tests and the reveal command look at). */
export interface ServerItemData {
  id: string;
  kind: 'server' | 'shadowed' | 'catalog' | 'catalogItem' | 'problems' | 'problem' | 'skill';
  /** The server a server, catalog or catalog item row belongs to. */
  serverId?: string;
  /** Tool rows: the tool's exact name (the label shows hidden characters as escapes). */
  toolName?: string;
  /** Server rows: the lifecycle state kind (`notStarted` while the lifecycle does not know the server). */
  state?: ServerState['kind'] | 'notStarted';
  /** The row's codicon id, e.g. `pass`, `loading~spin`. */
  icon: string;
  label: string;
  description: string;
  tooltip: string;
  contextValue: string;
  /** Where a click on the row goes. */
  location?: SourceLocation;
  children: ServerItemData[];
}

/** What the tree reads the configuration from. */
export interface ConfigSource {
  readonly current: ConfigSnapshot;
  readonly onDidChange: vscode.Event<ConfigSnapshot>;
}

/** What the tree reads the servers' lifecycle from (the ServerRegistry). */
export interface LifecycleSource {
  get(id: string): ServerView | undefined;
  readonly onDidChangeState: CoreEvent<unknown>;
  readonly onDidChangeCatalog: CoreEvent<unknown>;
  readonly onDidChangeServers: CoreEvent<void>;
}

/** What the tree reads about each tool: changed, new, flagged, blocked (the ToolReview). */
export interface ToolStatusSource {
  status(serverId: string, toolName: string): ToolStatus | undefined;
  readonly onDidChange: CoreEvent<void>;
}

/** What the tree reads about trust: each project server's decision and the danger flags of its definition. */
export interface TrustSource {
  decide(server: EffectiveServer): TrustDecision;
  flags(server: EffectiveServer): readonly DangerFlag[];
  /** Why its trust prompt waits (its file is being edited), or undefined. */
  waiting?(server: EffectiveServer): PromptHoldReason | undefined;
  readonly onDidChange: CoreEvent<void>;
}

/** One row as the tree provider holds it: the plain data plus what only VS Code can show. */
export interface Row {
  data: Omit<ServerItemData, 'icon'>;
  icon: vscode.ThemeIcon;
  markdown: vscode.MarkdownString;
  children: Row[];
}
