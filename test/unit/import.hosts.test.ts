// Each host's file format translated into our entries, from the fixture homes under
// test/fixtures/import: what is imported (exactly), what is skipped and why, and broken files as
// problems at their positions.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importHost, readHostFile, type HostId, type HostRead } from '../../src/core/import';

const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'import');

function readFixture(host: HostId, relative: string): HostRead {
  const file = path.join(FIXTURES, relative);
  return readHostFile(host, file, fs.readFileSync(file, 'utf8'));
}

const entries = (read: HostRead) => Object.fromEntries(read.servers.map((server) => [server.name, server.entry]));
const reasons = (read: HostRead) => read.skipped.map((item) => `${item.name}: ${item.reason}`);

describe('import: Claude Desktop', () => {
  const read = readFixture('claude-desktop', 'claude-desktop/home/.config/Claude/claude_desktop_config.json');

  it('translates its stdio servers exactly, values literal', () => {
    assert.deepEqual(entries(read), {
      filesystem: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/Documents'] },
      github: {
        type: 'stdio', command: 'docker', args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'fixture-token-not-real' },
      },
    });
    assert.deepEqual(read.problems, []);
  });

  it('skips a server whose literal ${…} we would expand, naming it', () => {
    assert.deepEqual(reasons(read), ['templated: not imported: "args" uses ${USER}: this host does not expand variables, so it is literal text, and Switchboard would expand it']);
  });

  it('marks a literal token in env as a secret to offer moving', () => {
    assert.deepEqual(read.servers.find((server) => server.name === 'github')?.secrets, [{ field: 'env', key: 'GITHUB_PERSONAL_ACCESS_TOKEN' }]);
    assert.deepEqual(read.servers.find((server) => server.name === 'filesystem')?.secrets, []);
  });

  it('reports a syntax error at its line and column, not a crash', () => {
    const broken = readFixture('claude-desktop', 'broken/claude_desktop_config.json');
    assert.equal(broken.usable, false);
    assert.deepEqual(broken.problems.map((p) => [p.line, p.column, p.message]), [
      [4, 5, 'Comma expected: the file is not valid JSON here'],
      [7, 1, 'Close brace expected: the file is not valid JSON here'],
    ]);
  });
});

describe('import: Claude Code', () => {
  const read = readFixture('claude-code', 'claude-code/home/.claude.json');

  it('reads the top-level and every project\'s servers, ${VAR} kept and our own names made env', () => {
    assert.deepEqual(read.servers.map((server) => [server.name, server.section]), [
      ['memory', 'user'], ['sentry', 'user'], ['db', 'project /home/me/app'], ['memory', 'project /home/me/app'],
    ]);
    assert.deepEqual(read.servers[2].entry, {
      type: 'stdio', command: 'uvx', args: ['mcp-server-postgres', '${DATABASE_URL:-postgres://localhost/app}'], env: { HOME_DIR: '${env:userHome}' },
    });
    assert.deepEqual(read.servers[1].entry, { type: 'http', url: 'https://mcp.sentry.dev/mcp' });
  });

  it('skips a server whose headers come from a helper command', () => {
    assert.deepEqual(reasons(read), ['internal: not imported: "headersHelper": its headers come from a command Claude Code runs, which Switchboard does not run']);
  });

  it('imports a name defined twice once, saying where the other one was', () => {
    const file = path.join(FIXTURES, 'claude-code/home/.claude.json');
    const result = importHost('claude-code', [{ file, read: { kind: 'text', text: fs.readFileSync(file, 'utf8') } }]);
    assert.deepEqual(result.servers.map((server) => server.name), ['memory', 'sentry', 'db']);
    assert.equal(result.servers[0].entry.command, 'npx');
    assert.ok(result.skipped.some((item) => item.name === 'memory' && item.reason === `not imported from ${file} (project /home/me/app): the name is already imported from ${file} (user)`));
  });
});

describe('import: VS Code', () => {
  const read = readFixture('vscode', 'vscode/home/.config/Code/User/mcp.json');

  it('translates servers and keeps inputs and the variables we expand', () => {
    assert.deepEqual(entries(read), {
      perplexity: { type: 'stdio', command: 'npx', args: ['-y', 'server-perplexity-ask'], env: { PERPLEXITY_API_KEY: '${input:perplexity-key}' } },
      github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' } },
      watcher: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/build/index.js'], cwd: '${workspaceFolder}' },
    });
    assert.deepEqual(read.inputs, [{ id: 'perplexity-key', type: 'promptString', description: 'Perplexity API Key', password: true }]);
    assert.deepEqual(read.servers.flatMap((server) => server.secrets), [], 'values from variables are not literal secrets');
  });

  it('lists each untranslatable field and server with its reason', () => {
    assert.deepEqual(reasons(read), [
      'github: "gallery" not imported: where VS Code installed it from is not kept',
      'watcher: "dev" not imported: VS Code\'s watch-and-debug mode for server authors has no counterpart',
      'named: not imported: "args" uses ${workspaceFolderBasename}: Switchboard expands only ${env:…}, ${input:…}, ${workspaceFolder} and ${userHome} of VS Code\'s variables',
      'boxed: not imported: "sandboxEnabled": VS Code runs it in a sandbox that limits its files and network; Switchboard has no sandbox, so it would run with more access',
    ]);
  });

  it('reports a servers section of the wrong shape at its position', () => {
    const broken = readFixture('vscode', 'broken/mcp.json');
    assert.deepEqual(broken.problems.map((p) => [p.line, p.column, p.message]), [[2, 14, '"servers" must be an object that maps server names to definitions']]);
    assert.deepEqual(broken.servers, []);
  });
});

describe('import: Cursor', () => {
  const read = readFixture('cursor', 'cursor/home/.cursor/mcp.json');

  it('translates url and command servers with ${env:}, ${userHome} and envFile', () => {
    assert.deepEqual(entries(read), {
      context7: { type: 'http', url: 'https://mcp.context7.com/mcp', headers: { CONTEXT7_API_KEY: 'fixture-key-not-real' } },
      notes: { type: 'stdio', command: 'node', args: ['${userHome}/mcp/notes.js'], env: { NOTES_TOKEN: '${env:NOTES_TOKEN}' }, envFile: '${userHome}/.notes.env' },
    });
    assert.deepEqual(read.servers[0].secrets, [{ field: 'headers', key: 'CONTEXT7_API_KEY' }]);
  });

  it('skips an unknown transport, naming it', () => {
    assert.deepEqual(reasons(read), ['broken-type: not imported: "type" "carrier-pigeon" is not a transport Switchboard knows (stdio, http, sse, ws)']);
  });
});

describe('import: Windsurf', () => {
  const read = readFixture('windsurf', 'windsurf/home/.codeium/windsurf/mcp_config.json');

  it('maps serverUrl to an http entry and keeps disabled and disabledTools', () => {
    assert.deepEqual(entries(read), {
      github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer fixture-pat-not-real' } },
      fetch: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'], disabled: true, disabledTools: ['fetch_raw'] },
    });
    assert.deepEqual(read.servers[0].secrets, [{ field: 'headers', key: 'Authorization' }]);
  });

  it('says why alwaysAllow and ${file:} are not imported', () => {
    assert.deepEqual(reasons(read), [
      'fetch: "alwaysAllow" not imported: Switchboard asks before tool calls by its own approval rules',
      'secrets-file: not imported: "env.KEY" uses ${file:/home/me/.key}: Switchboard expands only ${env:…} of Windsurf\'s variables',
    ]);
  });
});

describe('import: Codex', () => {
  const read = readFixture('codex', 'codex/home/.codex/config.toml');

  it('translates [mcp_servers.NAME] tables: timeouts, bearer and env headers, enabled and tool lists', () => {
    assert.deepEqual(entries(read), {
      context7: { type: 'stdio', command: 'npx', args: ['-y', '@upstash/context7-mcp'], env: { MY_ENV_VAR: 'MY_ENV_VALUE' }, timeout: 20000 },
      figma: {
        type: 'http', url: 'https://mcp.figma.com/mcp',
        headers: { 'X-Figma-Region': 'us-east-1', 'X-Team': '${FIGMA_TEAM}', Authorization: 'Bearer ${FIGMA_OAUTH_TOKEN}' },
      },
      chrome_devtools: { type: 'http', url: 'http://localhost:3000/mcp', disabled: true, allowedTools: ['open', 'screenshot'], disabledTools: ['open'] },
    });
  });

  it('lists the fields and servers left out', () => {
    assert.deepEqual(reasons(read), [
      'context7: "env_vars" not imported: Switchboard passes your whole environment to a server, so these names reach it anyway',
      'context7: "tool_timeout_sec" not imported: Switchboard has one tool call timeout for every server, the setting switchboard.requestTimeout',
      'dollar: not imported: "args" uses ${HOME}: this host does not expand variables, so it is literal text, and Switchboard would expand it',
    ]);
  });

  it('reports a TOML syntax error at its line and column', () => {
    const broken = readFixture('codex', 'broken/config.toml');
    assert.equal(broken.usable, false);
    assert.deepEqual(broken.problems.map((p) => [p.line, p.column, p.message]), [[4, 1, 'Invalid TOML document: expected comma or end of structure']]);
  });

  it('reports mcp_servers of the wrong type on its line', () => {
    const wrong = readHostFile('codex', '/x/config.toml', 'model = "o3"\nmcp_servers = "none"\n');
    assert.deepEqual(wrong.problems, [{ file: '/x/config.toml', line: 2, column: 1, message: '"mcp_servers" is a string, not a table of servers' }]);
  });
});

describe('import: Zed', () => {
  const read = readFixture('zed', 'zed/home/.config/zed/settings.json');

  it('reads context_servers from JSON with comments: flat and legacy command, remote, enabled', () => {
    assert.deepEqual(entries(read), {
      filesystem: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/src'] },
      legacy: { type: 'stdio', command: '/usr/local/bin/legacy-mcp', args: ['--stdio'], env: { LOG: '1' } },
      remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer fixture-not-real' }, disabled: true },
    });
  });

  it('skips a server an extension provides', () => {
    assert.deepEqual(reasons(read), ['postgres-context-server: not imported: a Zed extension provides this server and only that extension knows how to start it']);
  });
});

describe('import: Goose', () => {
  const read = readFixture('goose', 'goose/home/.config/goose/config.yaml');

  it('translates stdio, streamable_http and sse extensions; env_keys become secret inputs', () => {
    assert.deepEqual(entries(read), {
      github: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github-GITHUB_PERSONAL_ACCESS_TOKEN}' } },
      remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Api-Key': 'fixture-not-real' }, disabled: true },
      events: { type: 'sse', env: { PORT: '8080' }, url: 'http://localhost:8080/sse' },
    });
    assert.deepEqual(read.inputs, [{
      id: 'github-GITHUB_PERSONAL_ACCESS_TOKEN', type: 'promptString', description: 'GITHUB_PERSONAL_ACCESS_TOKEN for github (kept in Goose\'s secret storage)', password: true,
    }]);
  });

  it('skips built-in extensions and names the fields left out', () => {
    assert.deepEqual(reasons(read), [
      'developer: not imported: it is a "builtin" extension, which runs inside Goose rather than as an MCP server of its own',
      'github: "timeout" not imported: Goose\'s timeout is for tool calls; Switchboard has one for every server, the setting switchboard.requestTimeout',
      'github: "description" not imported: Switchboard keeps no description of a server',
    ]);
  });

  it('reports YAML errors at their lines', () => {
    const broken = readFixture('goose', 'broken/config.yaml');
    assert.equal(broken.usable, false);
    assert.deepEqual(broken.problems.map((p) => [p.line, p.column, p.message]), [
      [4, 1, 'All mapping items must start at the same column'],
      [5, 1, 'Flow sequence in block collection must be sufficiently indented and end with a ]'],
    ]);
  });
});

describe('import: files that are not there or not text', () => {
  it('counts missing files apart and reports a directory as a problem', () => {
    const result = importHost('cursor', [{ file: '/a/mcp.json', read: { kind: 'missing' } }, { file: '/b/mcp.json', read: { kind: 'directory' } }]);
    assert.deepEqual(result.missingFiles, ['/a/mcp.json']);
    assert.deepEqual(result.readFiles, []);
    assert.deepEqual(result.problems, [{ file: '/b/mcp.json', line: 1, column: 1, message: 'This path is a directory, not a file' }]);
  });
});
