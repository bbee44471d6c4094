// Cursor's `mcp.json` (`~/.cursor/mcp.json` and a project's `.cursor/mcp.json`): `mcpServers`, with
// `${env:VAR}`, `${userHome}` and `${workspaceFolder}`.
import { mcpServersReader } from './jsonSource';
import type { StandardDialect } from './standardEntry';
import type { HostReader } from './types';

const DIALECT: StandardDialect = {
  variables: 'cursor',
  fields: ['type', 'command', 'args', 'env', 'envFile', 'url', 'headers'],
  notes: { auth: 'sign-in settings are not imported; the server asks you to sign in when it answers 401' },
};

/** Reads one of Cursor's files. */
export const readCursor: HostReader = mcpServersReader(DIALECT);
