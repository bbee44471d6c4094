// Claude Desktop's `claude_desktop_config.json`: `mcpServers` of local (stdio) servers. Claude Desktop
// expands no variables: values are literal.
import { objectAt, parseJsonSource, unusable } from './jsonSource';
import { emptyRead, readServerMap } from './serverMap';
import type { StandardDialect } from './standardEntry';
import type { HostReader } from './types';

const DIALECT: StandardDialect = { variables: 'literal', fields: ['type', 'command', 'args', 'env', 'url', 'headers'] };

/** Reads Claude Desktop's configuration. */
export const readClaudeDesktop: HostReader = (file, text) => {
  const source = parseJsonSource(file, text);
  if (Array.isArray(source)) return unusable(source);
  const read = emptyRead();
  const servers = objectAt(source, ['mcpServers'], read.problems);
  if (servers !== undefined) readServerMap(read, servers, DIALECT, file);
  return read;
};
