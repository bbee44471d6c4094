// Claude Code's `~/.claude.json`: the user's servers in the top-level `mcpServers`, and each project's
// private (local scope) servers in `projects[<path>].mcpServers`. A project's `.mcp.json` is already a
// file Switchboard reads. Claude Code expands `${VAR}` and `${VAR:-default}`, as we do.
import { objectAt, parseJsonSource, unusable } from './jsonSource';
import { emptyRead, readServerMap } from './serverMap';
import type { StandardDialect } from './standardEntry';
import type { HostReader } from './types';

const DIALECT: StandardDialect = {
  variables: 'claude',
  fields: ['type', 'command', 'args', 'env', 'url', 'headers'],
  notes: { oauth: 'sign-in settings are not imported; the server asks you to sign in when it answers 401' },
  blockers: { headersHelper: 'its headers come from a command Claude Code runs, which Switchboard does not run' },
};

/** Reads Claude Code's user configuration (top level and per project). */
export const readClaudeCode: HostReader = (file, text) => {
  const source = parseJsonSource(file, text);
  if (Array.isArray(source)) return unusable(source);
  const read = emptyRead();
  const user = objectAt(source, ['mcpServers'], read.problems);
  if (user !== undefined) readServerMap(read, user, DIALECT, file, 'user');
  const projects = objectAt(source, ['projects'], read.problems);
  for (const project of Object.keys(projects ?? {})) {
    const servers = objectAt(source, ['projects', project, 'mcpServers'], read.problems);
    if (servers !== undefined) readServerMap(read, servers, DIALECT, file, `project ${project}`);
  }
  return read;
};
