// An entry's "roots" with the real server-filesystem, which replaces the folders its arguments name by
// the client's roots: a list reaches it instead of the workspace folders, and `false` (no roots
// capability) leaves it the folders of its arguments — the user-scope entry that would otherwise
// shrink to the open workspace.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { EffectiveServer, LaunchDefinition } from '../../src/core/config/types';
import type { ServerConnection, ServerLog } from '../../src/core/lifecycle/ports';
import { NodeServerConnector } from '../../src/node/connector';
import { FILESYSTEM } from './helperServers';
import { REPO_ROOT, TempDirs, waitFor } from './support';

const OPTS = { timeoutMs: 10_000 };

class StderrLog implements ServerLog {
  readonly stderrLines: string[] = [];
  info(): void {}
  warn(): void {}
  error(): void {}
  stderr(text: string): void { this.stderrLines.push(text); }
  serverMessage(): void {}
  trace(): void {}
}

function server(args: string[], roots: LaunchDefinition['roots']): EffectiveServer {
  return {
    name: 'files', id: 'files', scope: 'user',
    launch: { type: 'stdio', command: process.execPath, args: [FILESYSTEM, ...args], env: {}, headers: {}, ...(roots !== undefined ? { roots } : {}) },
    disabled: false, alwaysLoad: false, needsInput: [],
    source: { file: '/home/ada/.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
    fingerprint: 'fp', needsTrust: false,
  };
}

describe('roots setting with server-filesystem', function () {
  this.timeout(30_000);
  const temp = new TempDirs();
  const connector = new NodeServerConnector({ clientVersion: '0.0.0' });
  const open: ServerConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    temp.cleanup();
  });
  after(() => connector.dispose());

  /** Connects with the workspace's roots being REPO_ROOT; counts the times the workspace roots were asked. */
  async function connect(entry: EffectiveServer, log: StderrLog): Promise<{ connection: ServerConnection; workspaceAsked: () => number }> {
    let asked = 0;
    const connection = await connector.connect({
      server: entry, log,
      roots: () => { asked++; return [{ uri: pathToFileURL(REPO_ROOT).href, name: 'repo' }]; },
      startupTimeoutMs: 15_000, shutdownGraceMs: 200, trace: false, signal: new AbortController().signal,
    });
    open.push(connection);
    return { connection, workspaceAsked: () => asked };
  }

  async function allowedDirectories(connection: ServerConnection): Promise<string[]> {
    const result = await connection.callTool('list_allowed_directories', {}, OPTS);
    const text = result.content.map((block) => String(block.text ?? '')).join('\n');
    return text.split('\n').slice(1).map((line) => line.trim()).filter((line) => line !== '').sort();
  }

  it('a list of roots reaches the server in place of the workspace folders and of its arguments', async () => {
    const [notes, docs, fromArgs] = [temp.make(), temp.make(), temp.make()].map((dir) => fs.realpathSync(dir));
    const log = new StderrLog();
    const { connection, workspaceAsked } = await connect(server([fromArgs], [notes, docs]), log);
    await waitFor('the server to take the roots', () => log.stderrLines.some((line) => /Updated allowed directories from MCP roots: 2 valid/.test(line)), 10_000);
    assert.deepEqual(await allowedDirectories(connection), [notes, docs].sort());
    assert.equal(workspaceAsked(), 0, 'the workspace folders were not asked for');
    // Notifying a change of workspace folders is no news to it: its roots stay.
    await connection.notifyRootsChanged();
    assert.deepEqual(await allowedDirectories(connection), [notes, docs].sort());
  });

  it('"roots": false declares no roots, so the server keeps the folders of its arguments', async () => {
    const fromArgs = fs.realpathSync(temp.make());
    const log = new StderrLog();
    const { connection, workspaceAsked } = await connect(server([fromArgs], false), log);
    await waitFor('the server to say the client has no roots', () => log.stderrLines.some((line) => /Client does not support MCP Roots/.test(line)), 10_000);
    assert.deepEqual(await allowedDirectories(connection), [fromArgs]);
    assert.equal(workspaceAsked(), 0);
    await connection.notifyRootsChanged();
    assert.deepEqual(await allowedDirectories(connection), [fromArgs]);
  });

  it('without the setting, the workspace folders replace the folders of its arguments (why the setting exists)', async () => {
    const fromArgs = fs.realpathSync(temp.make());
    const log = new StderrLog();
    const { connection, workspaceAsked } = await connect(server([fromArgs], undefined), log);
    await waitFor('the server to take the roots', () => log.stderrLines.some((line) => /Updated allowed directories from MCP roots: 1 valid/.test(line)), 10_000);
    assert.deepEqual(await allowedDirectories(connection), [fs.realpathSync(REPO_ROOT)]);
    assert.ok(workspaceAsked() > 0);
  });
});
