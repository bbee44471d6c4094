// Claude Desktop's `claude_desktop_config.json`: `mcpServers` of local (stdio) servers. Claude Desktop
// expands no variables: values are literal.
import { mcpServersReader } from './jsonSource';
import type { StandardDialect } from './standardEntry';
import type { HostReader } from './types';

const DIALECT: StandardDialect = { variables: 'literal', fields: ['type', 'command', 'args', 'env', 'url', 'headers'] };

/** Reads Claude Desktop's configuration. */
export const readClaudeDesktop: HostReader = mcpServersReader(DIALECT);
