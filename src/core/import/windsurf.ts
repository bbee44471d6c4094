// Windsurf's `~/.codeium/windsurf/mcp_config.json`: `mcpServers`; a remote server's address is
// `serverUrl` (Streamable HTTP, or SSE, which our http transport falls back to), and `${env:VAR}` works.
import { mcpServersReader } from './jsonSource';
import type { StandardDialect } from './standardEntry';
import type { HostReader } from './types';

const DIALECT: StandardDialect = {
  variables: 'windsurf',
  fields: ['command', 'args', 'env', 'url', 'headers', 'disabled', 'disabledTools'],
  urlFields: ['serverUrl', 'url'],
  notes: { alwaysAllow: 'Switchboard asks before tool calls by its own approval rules' },
};

/** Reads Windsurf's configuration. */
export const readWindsurf: HostReader = mcpServersReader(DIALECT);
