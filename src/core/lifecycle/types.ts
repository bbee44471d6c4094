// MCP shapes the core works with, declared here so the core never imports the SDK.
// They mirror the protocol's JSON (the SDK adapter passes the server's objects through).
import type { AlwaysLoad } from '../config/types';

export type CatalogKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** How the tool may be called (the Tasks extension): `required`/`optional` mean it can run as a task. */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
  /** Metadata the server attaches (e.g. `anthropic/maxResultSizeChars`, a tool raising its own output limit). */
  _meta?: Record<string, unknown>;
}

export interface ResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface PromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

export interface CatalogItemOf {
  tools: ToolInfo;
  resources: ResourceInfo;
  resourceTemplates: ResourceTemplateInfo;
  prompts: PromptInfo;
}

/**
 * Everything a server offers, fully paged. What the rest of the extension reads (ServerView.catalog)
 * is the offered catalog: tools hidden by `allowedTools`/`disabledTools` are left out (and counted in
 * `hiddenTools`), and the entry's `alwaysLoad` is carried along.
 */
export interface Catalog {
  tools: ToolInfo[];
  resources: ResourceInfo[];
  resourceTemplates: ResourceTemplateInfo[];
  prompts: PromptInfo[];
  instructions?: string;
  serverInfo?: { name: string; version: string; title?: string };
  /** The MCP version the connection speaks ('2025-11-25' after `initialize`, '2026-07-28' after `server/discover`). */
  protocolVersion?: string;
  /** The entry's `alwaysLoad`: all (`true`) or the named tools go to the model in full, not through catalog search. */
  alwaysLoad?: AlwaysLoad;
  /** How many of the tools the server lists its entry's `allowedTools`/`disabledTools` hide (absent when none). */
  hiddenTools?: number;
  /** Tools the host refused to take from the listing (a schema nested too deep, say), with why; absent when none. */
  refusedTools?: RefusedTool[];
  /** Kinds whose last listing failed (what was listed before is kept), in display order; absent when none. */
  failedListings?: FailedListing[];
}

/** A listing the server answered with an error: the server is ready, but what it offers may be missing. */
export interface FailedListing {
  kind: CatalogKind;
  /** The error, as the server or the connection gave it. */
  error: string;
}

/** A tool left out of the catalog because the host cannot check it safely. */
export interface RefusedTool {
  name: string;
  /** Why, in words: "its input schema is nested more than 64 levels deep". */
  reason: string;
}

/** A content block of a tool result, passed through as the server sent it. */
export type ContentBlock = { type: string } & Record<string, unknown>;

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** Metadata the server attaches (e.g. `ui.resourceUri`, the MCP App that shows this result). */
  _meta?: Record<string, unknown>;
}

/** A workspace folder as an MCP root. */
export interface Root {
  uri: string;
  name?: string;
}

/** MCP log levels (RFC 5424 names), lowest first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type McpLogLevel = (typeof LOG_LEVELS)[number];
