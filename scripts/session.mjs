// The running part of `npm start`: VS Code (code-server) with the installed extension and a workspace,
// until Ctrl-C (or SIGTERM/SIGHUP). Then VS Code is stopped first, the way closing it would: its
// extension host deactivates MCP Switchboard, which shuts every server down (stdin closed → SIGTERM →
// SIGKILL of its process group); only then does the sweep kill whatever is left. What was stopped, and
// how, is printed. A second Ctrl-C kills everything at once.
import { onSignal } from '../test/harness/cleanup.mjs';
import { startCodeServer, workbenchUrl } from '../test/harness/codeServer.mjs';
import { shutdownReport } from '../test/harness/shutdown.mjs';

/** How long VS Code gets to stop: its extension host allows deactivate 5 s, a server's staged stop takes up to two grace periods. */
export const STOP_GRACE_MS = 15_000;

/**
 * Starts code-server on `stateDir` (see startCodeServer, which takes `settings` over its quiet ones) and prints `banner(url, server)`. From then on
 * a signal stops it in order and prints the report, then the process exits (0). Resolves to the server.
 */
export async function runSession({ stateDir, workspace, home, port, env = {}, settings = {}, banner, print = (line) => console.log(line) }) {
  const server = await startCodeServer({ stateDir, folder: workspace, home, port, env, settings });
  onSignal(async (signal) => {
    print(`\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping VS Code first, so that MCP Switchboard shuts its servers down (Ctrl-C again kills everything now)…`);
    const report = await server.stopInOrder({ graceMs: STOP_GRACE_MS });
    for (const line of shutdownReport(report)) print(line);
    return 0;
  });
  print(banner(workbenchUrl(server, { folder: workspace }), server));
  return server;
}
