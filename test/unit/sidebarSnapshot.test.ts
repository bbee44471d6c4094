import * as assert from 'node:assert/strict';
import type { ConfigProblem, EffectiveServer, LaunchDefinition, ShadowedServer, SourceRange } from '../../src/core/config/types';
import type { ServerState } from '../../src/core/lifecycle/state';
import { launchSummary, revealHiddenCharacters, toSidebarSnapshot } from '../../src/core/sidebarSnapshot';

const PROJECT = '/ws/shop/.mcp.json';
const USER = '/home/alice/.mcp.json';

function range(file: string, line: number, column: number): SourceRange {
  return { file, line, column, endLine: line, endColumn: column + 8, offset: 100, length: 8 };
}

function launch(partial: Partial<LaunchDefinition> & Pick<LaunchDefinition, 'type'>): LaunchDefinition {
  return { args: [], env: {}, headers: {}, ...partial };
}

function server(partial: Partial<EffectiveServer> & Pick<EffectiveServer, 'name' | 'scope'>): EffectiveServer {
  return {
    id: partial.name,
    launch: launch({ type: 'stdio', command: 'npx' }),
    disabled: false,
    alwaysLoad: false,
    needsInput: [],
    source: range(USER, 2, 5),
    fingerprint: `fp-${partial.name}`,
    needsTrust: false,
    ...partial,
  };
}

function problem(partial: Partial<ConfigProblem> & Pick<ConfigProblem, 'file' | 'line' | 'severity'>): ConfigProblem {
  return { column: 1, endLine: partial.line, endColumn: 9, code: 'syntax', message: 'Broken.', ...partial };
}

const NO_CONFIG = { servers: [], shadowed: [], problems: [] };

describe('toSidebarSnapshot', () => {
  it('maps an effective server to a row with every field the view needs', () => {
    const github = server({
      name: 'github',
      scope: 'project',
      folder: '/ws/shop',
      launch: launch({ type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_secret' }, envFile: '/ws/shop/.env' }),
      source: range(PROJECT, 3, 7),
      fingerprint: 'sha256:abc',
      needsTrust: true,
      timeout: 5000,
    });

    const snapshot = toSidebarSnapshot({ ...NO_CONFIG, servers: [github] }, { generatedAt: 1_700_000_000_000, workspaceName: 'shop' });

    assert.deepEqual(snapshot, {
      servers: [{
        id: 'github',
        name: 'github',
        scope: 'project',
        folder: '/ws/shop',
        transport: 'stdio',
        state: 'notStarted',
        stateLabel: 'not started',
        launchSummary: 'npx -y @modelcontextprotocol/server-github',
        source: { file: PROJECT, line: 3, column: 7 },
        needsTrust: true,
        disabled: false,
        canRestart: false,
        fingerprint: 'sha256:abc',
      }],
      shadowed: [],
      problems: [],
      workspaceName: 'shop',
      approvals: { mode: 'askBeforeEdits', pending: [], rules: [], history: [] },
      elicitations: [],
      sampling: [],
      generatedAt: 1_700_000_000_000,
    });
  });

  it('leaves out optional fields that are absent instead of sending undefined', () => {
    const snapshot = toSidebarSnapshot({ ...NO_CONFIG, servers: [server({ name: 'memory', scope: 'user' })] }, { generatedAt: 1 });

    assert.equal('workspaceName' in snapshot, false);
    assert.equal('folder' in (snapshot.servers[0] ?? {}), false);
  });

  it('is plain data that survives postMessage (JSON) unchanged and does not alias its input', () => {
    const input = { servers: [server({ name: 'a', scope: 'user' })], shadowed: [], problems: [problem({ file: USER, line: 1, severity: 'error' })] };
    const before = JSON.stringify(input);

    const snapshot = toSidebarSnapshot(input, { generatedAt: 5 });

    assert.deepEqual(JSON.parse(JSON.stringify(snapshot)), snapshot);
    assert.equal(JSON.stringify(input), before);
    assert.notEqual(snapshot.servers[0]?.source, input.servers[0]?.source);
  });

  it('lists servers as the Servers tree does (scope precedence, then id), whatever the merge order', () => {
    const merged = {
      ...NO_CONFIG,
      servers: [
        server({ name: 'zeta', scope: 'user' }),
        server({ name: 'Alpha', scope: 'plugin' }),
        server({ name: 'beta', scope: 'project' }),
        server({ name: 'alpha', scope: 'user' }),
        server({ name: 'omega', scope: 'local' }),
      ],
    };

    const names = toSidebarSnapshot(merged, { generatedAt: 0 }).servers.map((s) => s.name);

    assert.deepEqual(names, ['omega', 'beta', 'alpha', 'zeta', 'Alpha']);
  });

  it('asks stateOf for each server state and labels it', () => {
    const seen: string[] = [];
    const snapshot = toSidebarSnapshot({ ...NO_CONFIG, servers: [server({ name: 'a', scope: 'user' })] }, {
      generatedAt: 0,
      stateOf: (s) => {
        seen.push(s.id);
        return 'notStarted';
      },
    });

    assert.deepEqual(seen, ['a']);
    assert.equal(snapshot.servers[0]?.stateLabel, 'not started');
  });

  it('shows a server that is stopping, from its kind or its full state', () => {
    const servers = [server({ name: 'a', scope: 'user' }), server({ name: 'b', scope: 'user' })];
    const snapshot = toSidebarSnapshot({ ...NO_CONFIG, servers }, {
      generatedAt: 0,
      stateOf: (s) => (s.id === 'a' ? 'stopping' : { state: { kind: 'stopping', since: 5 } }),
    });
    assert.deepEqual(snapshot.servers.map((row) => [row.state, row.stateLabel]), [['stopping', 'stopping…'], ['stopping', 'stopping…']]);
  });

  it('offers Restart where the lifecycle says it applies: running, starting or failed, not stopped or parked', () => {
    const states: ServerState[] = [
      { kind: 'ready', since: 0, startMs: 5 }, { kind: 'starting', since: 0 }, { kind: 'failed', error: 'exit 1', stderrTail: [] },
      { kind: 'stopped' }, { kind: 'stopping', since: 0 }, { kind: 'needsTrust' }, { kind: 'disabled' },
    ];
    const servers = states.map((_, i) => server({ name: `s${i}`, scope: 'user' }));
    const snapshot = toSidebarSnapshot({ ...NO_CONFIG, servers }, {
      generatedAt: 0,
      stateOf: (s) => ({ state: states[Number(s.name.slice(1))] }),
    });
    assert.deepEqual(snapshot.servers.map((row) => [row.state, row.canRestart]), [
      ['ready', true], ['starting', true], ['failed', true], ['stopped', false], ['stopping', false], ['needsTrust', false], ['disabled', false],
    ]);
  });

  it('keeps disabled and folder-qualified ids exact', () => {
    const snapshot = toSidebarSnapshot({
      ...NO_CONFIG,
      servers: [server({ id: 'api/db', name: 'db', scope: 'project', folder: '/ws/api', disabled: true })],
    }, { generatedAt: 0 });

    assert.equal(snapshot.servers[0]?.id, 'api/db');
    assert.equal(snapshot.servers[0]?.name, 'db');
    assert.equal(snapshot.servers[0]?.disabled, true);
  });

  it('maps shadowed entries with the file and scope that shadow them', () => {
    const shadowed: ShadowedServer[] = [
      { name: 'github', scope: 'user', source: range(USER, 9, 5), shadowedBy: { id: 'github', scope: 'project', file: PROJECT } },
      { name: 'db', scope: 'plugin', folder: '/ws/shop', source: range('/ext/package.json', 40, 9), shadowedBy: { id: 'db', scope: 'local', file: '/storage/local.mcp.json' } },
    ];

    const snapshot = toSidebarSnapshot({ ...NO_CONFIG, shadowed }, { generatedAt: 0 });

    assert.deepEqual(snapshot.shadowed, [
      { name: 'db', scope: 'plugin', source: { file: '/ext/package.json', line: 40, column: 9 }, shadowedBy: { id: 'db', scope: 'local', file: '/storage/local.mcp.json' } },
      { name: 'github', scope: 'user', source: { file: USER, line: 9, column: 5 }, shadowedBy: { id: 'github', scope: 'project', file: PROJECT } },
    ]);
  });

  it('lists errors before warnings, then by file and position', () => {
    const problems = [
      problem({ file: USER, line: 2, severity: 'warning', code: 'unresolved-variable', message: 'Unresolved ${env:X}.' }),
      problem({ file: PROJECT, line: 9, column: 3, severity: 'error', code: 'unknown-type', message: 'Unknown type "stdoi".' }),
      problem({ file: PROJECT, line: 9, column: 1, severity: 'error', code: 'syntax', message: 'Expected a comma.' }),
      problem({ file: '/a/.mcp.json', line: 30, severity: 'error', code: 'syntax', message: 'Trailing text.' }),
    ];

    const rows = toSidebarSnapshot({ ...NO_CONFIG, problems }, { generatedAt: 0 }).problems;

    assert.deepEqual(rows.map((p) => `${p.severity} ${p.file}:${p.line}:${p.column} ${p.code}`), [
      'error /a/.mcp.json:30:1 syntax',
      `error ${PROJECT}:9:1 syntax`,
      `error ${PROJECT}:9:3 unknown-type`,
      `warning ${USER}:2:1 unresolved-variable`,
    ]);
    assert.deepEqual(Object.keys(rows[0] ?? {}).sort(), ['code', 'column', 'file', 'line', 'message', 'severity']);
  });

  it('makes hidden characters in names and messages visible but keeps the id exact', () => {
    const sneaky = 'git\u202Ebuh\u200B';
    const snapshot = toSidebarSnapshot({
      servers: [server({ name: sneaky, scope: 'project' })],
      shadowed: [],
      problems: [problem({ file: PROJECT, line: 1, severity: 'error', message: 'Bad\u0007 name\non two lines' })],
    }, { generatedAt: 0 });

    assert.equal(snapshot.servers[0]?.id, sneaky);
    assert.equal(snapshot.servers[0]?.name, 'git\\u{202E}buh\\u{200B}');
    assert.equal(snapshot.problems[0]?.message, 'Bad\\u{7} name on two lines');
  });
});

describe('launchSummary', () => {
  it('shows a stdio command line, quoting only arguments that need it', () => {
    assert.equal(
      launchSummary(launch({ type: 'stdio', command: 'uvx', args: ['mcp-server-fetch', '--user-agent', 'My Agent', "it's", ''] })),
      `uvx mcp-server-fetch --user-agent 'My Agent' 'it'\\''s' ''`,
    );
  });

  it('shows the url for http, sse and ws, untouched when it carries no secret', () => {
    for (const type of ['http', 'sse', 'ws'] as const) {
      assert.equal(launchSummary(launch({ type, url: 'https://mcp.example.com' })), 'https://mcp.example.com');
    }
  });

  it('masks likely secrets in arguments', () => {
    const summary = launchSummary(launch({
      type: 'stdio',
      command: 'npx',
      args: ['mcp-remote', 'https://x.dev/mcp', '--header', 'Authorization: Bearer abc123', '--api-key', 'sk-live-1', '--token=ghp_2', '-e', 'SLACK_BOT_TOKEN=xoxb-3', '--port', '8080', '--verbose'],
    }));

    assert.equal(summary, "npx mcp-remote https://x.dev/mcp --header 'Authorization: ***' --api-key *** --token=*** -e SLACK_BOT_TOKEN=*** --port 8080 --verbose");
    for (const secret of ['abc123', 'sk-live-1', 'ghp_2', 'xoxb-3']) assert.ok(!summary.includes(secret), secret);
  });

  it('masks credentials and secret query parameters in urls', () => {
    assert.equal(
      launchSummary(launch({ type: 'http', url: 'https://mcp.linear.app/mcp?api_key=lin_123&team=WEB' })),
      'https://mcp.linear.app/mcp?api_key=***&team=WEB',
    );
    // The user name is masked too: it is often the first half of the credential.
    assert.equal(launchSummary(launch({ type: 'sse', url: 'https://bob:hunter2@host.dev/sse' })), 'https://***:***@host.dev/sse');
    assert.equal(
      launchSummary(launch({ type: 'stdio', command: 'npx', args: ['server-postgres', 'postgresql://app:s3cret@localhost:5432/db'] })),
      'npx server-postgres postgresql://***:***@localhost:5432/db',
    );
  });

  it('leaves an unparsable url as written', () => {
    assert.equal(launchSummary(launch({ type: 'http', url: 'not a url ${input:host}' })), 'not a url ${input:host}');
  });
});

describe('revealHiddenCharacters', () => {
  it('escapes bidi controls, zero-width characters and Unicode tags, and leaves ordinary text alone', () => {
    assert.equal(revealHiddenCharacters('a\u2066b\uFEFFc\u{E0041}d'), 'a\\u{2066}b\\u{FEFF}c\\u{E0041}d');
    assert.equal(revealHiddenCharacters('café — ok ✓ 日本'), 'café — ok ✓ 日本');
    assert.equal(revealHiddenCharacters('tab\there'), 'tab here');
  });
  it('carries the tools the host refused, names made display-safe, only while ready', () => {
    const config = { ...NO_CONFIG, servers: [server({ name: 'deep', scope: 'user' })] };
    const refusedTools = [{ name: 'deep\u202E', reason: 'its input schema is nested more than 64 levels deep' }];
    const ready = toSidebarSnapshot(config, { generatedAt: 1, stateOf: () => ({ state: { kind: 'ready', since: 0, startMs: 1 }, refusedTools }) });
    assert.deepEqual(ready.servers[0].refusedTools, [{ name: 'deep\\u{202E}', reason: 'its input schema is nested more than 64 levels deep' }]);
    const stopped = toSidebarSnapshot(config, { generatedAt: 1, stateOf: () => ({ state: { kind: 'stopped' }, refusedTools }) });
    assert.equal(stopped.servers[0].refusedTools, undefined);
  });

  it('carries the hint of a failed server next to its reason', () => {
    const config = { ...NO_CONFIG, servers: [server({ name: 'brave', scope: 'user' })] };
    const hint = 'set BRAVE_API_KEY: add it to the "env" of "brave" in /home/alice/.mcp.json (user scope)';
    const failed = toSidebarSnapshot(config, { generatedAt: 1, stateOf: () => ({ state: { kind: 'failed', error: 'process exited with code 1 during startup', stderrTail: [], hint } }) });
    assert.equal(failed.servers[0].stateReason, 'process exited with code 1 during startup');
    assert.equal(failed.servers[0].stateHint, hint);
    const plain = toSidebarSnapshot(config, { generatedAt: 1, stateOf: () => ({ state: { kind: 'failed', error: 'x', stderrTail: [] } }) });
    assert.equal('stateHint' in plain.servers[0], false);
  });

  it('carries the warnings of a ready server (a failed listing), display-safe, only while ready', () => {
    const config = { ...NO_CONFIG, servers: [server({ name: 'flaky', scope: 'user' })] };
    const warnings = ['tools/list failed: MCP error -32603: index\u202E down'];
    const ready = toSidebarSnapshot(config, { generatedAt: 1, stateOf: () => ({ state: { kind: 'ready', since: 0, startMs: 1 }, warnings }) });
    assert.deepEqual(ready.servers[0].warnings, ['tools/list failed: MCP error -32603: index\\u{202E} down']);
    const none = toSidebarSnapshot(config, { generatedAt: 1, stateOf: () => ({ state: { kind: 'ready', since: 0, startMs: 1 }, warnings: [] }) });
    assert.equal('warnings' in none.servers[0], false);
    const stopped = toSidebarSnapshot(config, { generatedAt: 1, stateOf: () => ({ state: { kind: 'stopped' }, warnings }) });
    assert.equal(stopped.servers[0].warnings, undefined);
  });
});
