// `switchboard config` as a user runs it: the built dist/cli.js in a child process, on real files in
// temp homes and workspaces. Build first: `node esbuild.mjs`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { requireBuiltCli, runCli, TempDirs, write, writeJson } from './support';

const SERVER_KEYS = ['name', 'scope', 'folder', 'type', 'command', 'args', 'env', 'envFile', 'envFileVariables', 'cwd', 'url', 'headers', 'fingerprint', 'needsTrust', 'policy', 'source'];
const SOURCE_KEYS = ['file', 'line', 'column'];
const NO_POLICY = { verdict: 'allowed', rule: null, reason: 'no policy rule applies' };
const SHADOWED_KEYS = ['name', 'scope', 'source', 'shadowedBy'];
const PROBLEM_KEYS = ['file', 'line', 'column', 'severity', 'message'];

interface JsonSource { file: string; line: number; column: number }
interface JsonServer {
  name: string; scope: string; folder: string | null; type: string; command: string | null; args: string[];
  env: Record<string, string>; envFile: string | null; envFileVariables: string[] | null; cwd: string | null; url: string | null; headers: Record<string, string>;
  fingerprint: string; needsTrust: boolean; source: JsonSource;
}
interface JsonShadowed { name: string; scope: string; source: JsonSource; shadowedBy: { scope: string; file: string } }
interface JsonProblem { file: string; line: number; column: number; severity: 'error' | 'warning'; message: string }
interface JsonOutput { servers: JsonServer[]; shadowed: JsonShadowed[]; problems: JsonProblem[]; dangerFlags: Record<string, string[]> }

describe('switchboard config (built CLI)', function () {
  this.timeout(20000);
  const temp = new TempDirs();
  before(requireBuiltCli);
  afterEach(() => temp.cleanup());

  /** A root with an empty workspace folder `alpha` and an empty home. */
  function layout(): { root: string; ws: string; home: string } {
    const root = temp.make();
    const ws = path.join(root, 'alpha');
    const home = path.join(root, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    return { root, ws, home };
  }

  /** Runs `config … --json`, expects exit 0 and parses stdout. */
  function configJson(args: string[], env: Record<string, string | undefined> = {}, cwd?: string): JsonOutput {
    const result = runCli(['config', ...args, '--json'], env, cwd);
    assert.equal(result.status, 0, `exit ${result.status}, stderr: ${result.stderr}`);
    assert.equal(result.stderr, '');
    return JSON.parse(result.stdout) as JsonOutput;
  }

  /** 1-based column of the first `needle` on 1-based `line` of `text`. */
  const columnOf = (text: string, line: number, needle: string): number => {
    const column = text.split('\n')[line - 1].indexOf(needle) + 1;
    assert.ok(column > 0, `${needle} not on line ${line}`);
    return column;
  };

  const byName = (output: JsonOutput, name: string): JsonServer => {
    const server = output.servers.find((s) => s.name === name);
    assert.ok(server, `server "${name}" not in ${output.servers.map((s) => s.name).join(', ')}`);
    return server;
  };

  it('prints the JSON contract exactly: keys, order, types, nulls and empties', () => {
    const { ws, home } = layout();
    const projectText = `{
  "mcpServers": {
    "files": { "command": "node", "args": ["server.js"], "env": { "TOKEN": "s3cret" }, "cwd": "\${workspaceFolder}" },
    "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer abc" } },
    "plain": { "command": "echo", "color": "blue" }
  }
}
`;
    const project = write(path.join(ws, '.mcp.json'), projectText);
    const user = writeJson(path.join(home, '.mcp.json'), { mcpServers: { files: { command: 'user-files' } } });

    const result = runCli(['config', '--workspace', ws, '--home', home, '--json']);
    assert.equal(result.status, 0, result.stderr);
    const output = JSON.parse(result.stdout) as JsonOutput;
    // Exactly 2-space indented, with one trailing newline.
    assert.equal(result.stdout, `${JSON.stringify(output, null, 2)}\n`);
    assert.deepEqual(Object.keys(output), ['servers', 'shadowed', 'problems', 'dangerFlags', 'approvalLock']);
    assert.equal((output as unknown as { approvalLock: unknown }).approvalLock, null, 'no policy fixes the mode');
    assert.deepEqual(output.dangerFlags, {});

    assert.deepEqual(output.servers.map((s) => s.name), ['files', 'plain', 'remote']);
    for (const server of output.servers) {
      assert.deepEqual(Object.keys(server), SERVER_KEYS);
      assert.deepEqual(Object.keys(server.source), SOURCE_KEYS);
      assert.match(server.fingerprint, /^[0-9a-f]{64}$/);
    }
    assert.deepEqual(byName(output, 'files'), {
      name: 'files', scope: 'project', folder: ws, type: 'stdio', command: 'node', args: ['server.js'],
      env: { TOKEN: '***' }, envFile: null, envFileVariables: null, cwd: ws, url: null, headers: {},
      fingerprint: byName(output, 'files').fingerprint, needsTrust: true, policy: NO_POLICY,
      source: { file: project, line: 3, column: 5 },
    });
    assert.deepEqual(byName(output, 'remote'), {
      name: 'remote', scope: 'project', folder: ws, type: 'http', command: null, args: [],
      env: {}, envFile: null, envFileVariables: null, cwd: null, url: 'https://example.com/mcp', headers: { Authorization: '***' },
      fingerprint: byName(output, 'remote').fingerprint, needsTrust: true, policy: NO_POLICY,
      source: { file: project, line: 4, column: 5 },
    });
    assert.deepEqual(byName(output, 'plain'), {
      name: 'plain', scope: 'project', folder: ws, type: 'stdio', command: 'echo', args: [],
      env: {}, envFile: null, envFileVariables: null, cwd: null, url: null, headers: {},
      fingerprint: byName(output, 'plain').fingerprint, needsTrust: true, policy: NO_POLICY,
      source: { file: project, line: 5, column: 5 },
    });

    assert.deepEqual(output.shadowed, [
      { name: 'files', scope: 'user', source: { file: user, line: 3, column: 5 }, shadowedBy: { scope: 'project', file: project } },
    ]);
    assert.deepEqual(Object.keys(output.shadowed[0]), SHADOWED_KEYS);
    assert.deepEqual(Object.keys(output.shadowed[0].shadowedBy), ['scope', 'file']);

    assert.equal(output.problems.length, 1, JSON.stringify(output.problems));
    const [problem] = output.problems;
    assert.deepEqual(Object.keys(problem), PROBLEM_KEYS);
    assert.deepEqual({ ...problem, message: '' }, { file: project, line: 5, column: columnOf(projectText, 5, '"color"'), severity: 'warning', message: '' });
    assert.match(problem.message, /color/);
  });

  it('applies precedence local > project > user > plugin and lists every shadowed entry', () => {
    const { root, ws, home } = layout();
    const local = writeJson(path.join(root, 'storage', 'local.mcp.json'), {
      mcpServers: { shared: { command: 'local-cmd' }, onlyLocal: { command: 'l' } },
    });
    const project = writeJson(path.join(ws, '.mcp.json'), {
      mcpServers: { shared: { command: 'project-cmd' }, onlyProject: { command: 'p' } },
    });
    const user = writeJson(path.join(home, '.mcp.json'), {
      mcpServers: { shared: { command: 'user-cmd' }, onlyUser: { command: 'u' }, pluginClash: { command: 'user-pc' } },
    });
    // Both top-level keys are accepted; plugin files are labelled by their file name.
    const pluginA = writeJson(path.join(root, 'plugins', 'a.mcp.json'), {
      servers: { shared: { command: 'plugin-cmd' }, onlyPlugin: { command: 'x' }, pluginClash: { command: 'plugin-pc' } },
    });
    const pluginB = writeJson(path.join(root, 'plugins', 'b.json'), { mcpServers: { fromB: { url: 'https://b.example/mcp' } } });

    const output = configJson(['--workspace', ws, '--home', home, '--local', local, '--plugin', pluginA, '--plugin', pluginB]);

    assert.deepEqual(
      output.servers.map((s) => [s.name, s.scope, s.command ?? s.url, s.needsTrust]),
      [
        ['onlyLocal', 'local', 'l', false],
        ['shared', 'local', 'local-cmd', false],
        ['onlyProject', 'project', 'p', true],
        ['onlyUser', 'user', 'u', false],
        ['pluginClash', 'user', 'user-pc', false],
        ['fromB', 'plugin', 'https://b.example/mcp', false],
        ['onlyPlugin', 'plugin', 'x', false],
      ],
    );
    assert.equal(byName(output, 'shared').source.file, local);
    assert.equal(byName(output, 'shared').folder, ws, 'the local scope belongs to the first workspace');
    assert.equal(byName(output, 'onlyUser').folder, null);
    assert.equal(byName(output, 'fromB').type, 'http');

    assert.deepEqual(
      output.shadowed.map((s) => [s.name, s.scope, s.source.file, s.shadowedBy.scope, s.shadowedBy.file]),
      [
        ['shared', 'project', project, 'local', local],
        ['shared', 'user', user, 'local', local],
        ['pluginClash', 'plugin', pluginA, 'user', user],
        ['shared', 'plugin', pluginA, 'local', local],
      ],
    );
    assert.deepEqual(output.problems, []);
  });

  it('keeps both servers of a name clash between two workspaces under unique folder-qualified names', () => {
    const { root, ws, home } = layout();
    const beta = path.join(root, 'beta');
    const alphaFile = writeJson(path.join(ws, '.mcp.json'), { mcpServers: { db: { command: 'alpha-db' } } });
    const betaFile = writeJson(path.join(beta, '.mcp.json'), { mcpServers: { db: { command: 'beta-db' }, other: { command: 'o' } } });
    writeJson(path.join(home, '.mcp.json'), { mcpServers: { db: { command: 'user-db' } } });

    const output = configJson(['--workspace', ws, '--workspace', beta, '--home', home]);

    assert.deepEqual(
      output.servers.map((s) => [s.name, s.folder, s.command, s.source.file]),
      [
        ['alpha/db', ws, 'alpha-db', alphaFile],
        ['beta/db', beta, 'beta-db', betaFile],
        ['other', beta, 'o', betaFile],
      ],
    );
    const names = output.servers.map((s) => s.name);
    assert.equal(new Set(names).size, names.length, 'names are unique');
    // The user-scope "db" loses to the folders' definitions.
    assert.deepEqual(output.shadowed.map((s) => [s.name, s.scope]), [['db', 'user']]);
    // The clash is reported at both definitions.
    const clash = output.problems.filter((p) => /alpha\/db|beta\/db/.test(p.message));
    assert.deepEqual(clash.map((p) => [p.file, p.line, p.severity]).sort(), [[alphaFile, 3, 'warning'], [betaFile, 3, 'warning']].sort());

    const table = runCli(['config', '--workspace', ws, '--workspace', beta, '--home', home]);
    assert.equal(table.status, 0);
    assert.match(table.stdout, /^alpha\/db\s/m);
    assert.match(table.stdout, /^beta\/db\s/m);
  });

  it('reads JSONC: comments and trailing commas', () => {
    const { ws, home } = layout();
    const project = write(path.join(ws, '.mcp.json'), `// Team servers
{
  /* the file server */
  "mcpServers": {
    "files": {
      "command": "node", // inline comment
      "args": ["a", "b",],
    },
  },
}
`);
    const output = configJson(['--workspace', ws, '--home', home]);
    assert.deepEqual(output.problems, []);
    assert.deepEqual(output.servers.map((s) => [s.name, s.args, s.source.file, s.source.line, s.source.column]), [
      ['files', ['a', 'b'], project, 5, 5],
    ]);
  });

  it('reports a broken file at its exact line and column, keeps the other scopes, and exits 0', () => {
    const { ws, home } = layout();
    const project = write(path.join(ws, '.mcp.json'), `{
  "mcpServers": {
    "a": { "command": "node" }
    "b": { "command": "x" }
  }
}
`);
    writeJson(path.join(home, '.mcp.json'), { mcpServers: { fromUser: { command: 'u' } } });

    const output = configJson(['--workspace', ws, '--home', home]);
    assert.deepEqual(output.servers.map((s) => s.name), ['fromUser']);
    const errors = output.problems.filter((p) => p.severity === 'error');
    assert.ok(errors.length >= 1, JSON.stringify(output.problems));
    assert.deepEqual({ ...errors[0], message: '' }, { file: project, line: 4, column: 5, severity: 'error', message: '' });
    assert.match(errors[0].message, /comma/i);

    const table = runCli(['config', '--workspace', ws, '--home', home]);
    assert.equal(table.status, 0);
    assert.ok(table.stdout.includes(`${project}:4:5 error `), table.stdout);
  });

  it('a typo\'s problem says "did you mean", as in the editor: a field, a type, and the top-level key', () => {
    const { ws, home } = layout();
    const project = write(path.join(ws, '.mcp.json'), `{
  "mcpServers": {
    "a": { "comand": "node" },
    "b": { "type": "stdoi", "command": "x" }
  }
}
`);
    const user = write(path.join(home, '.mcp.json'), '{ "mcpServer": { "u": { "command": "u" } } }\n');
    const output = configJson(['--workspace', ws, '--home', home]);
    const messages = output.problems.map((p) => `${p.file === project ? 'project' : p.file === user ? 'user' : p.file}:${p.line}: ${p.message}`);
    assert.ok(messages.includes('project:3: Unknown field "comand" in server "a", ignored; did you mean "command"?'), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('project:4: Unknown server type "stdoi" in server "b"; did you mean "stdio"?')), messages.join('\n'));
    assert.ok(messages.includes('user:1: Unknown key "mcpServer", ignored (so are the servers in it); did you mean "mcpServers"?'), messages.join('\n'));
    for (const problem of output.problems) assert.deepEqual(Object.keys(problem), PROBLEM_KEYS, 'the JSON contract is unchanged');
  });

  it('expands ${userHome} (= --home), ${workspaceFolder}, environment variables and ${VAR:-default}', () => {
    const { ws, home } = layout();
    const project = write(path.join(ws, '.mcp.json'), `{
  "mcpServers": {
    "vars": {
      "command": "\${userHome}/bin/tool",
      "args": ["\${workspaceFolder}/src", "\${SWITCHBOARD_IT_VAR}", "\${env:SWITCHBOARD_IT_VAR}", "\${SWITCHBOARD_IT_UNSET:-fallback}"],
      "env": { "KEY": "key-\${SWITCHBOARD_IT_VAR}", "HOME_DIR": "\${userHome}/data" }
    },
    "unresolved": { "command": "x", "args": ["\${SWITCHBOARD_IT_UNSET}"] }
  }
}
`);
    const output = configJson(['--workspace', ws, '--home', home], { SWITCHBOARD_IT_VAR: 'from-env', SWITCHBOARD_IT_UNSET: undefined });
    const vars = byName(output, 'vars');
    assert.equal(vars.command, `${home}/bin/tool`);
    // What the environment filled in is a secret like an env value; a default written in the file is not.
    assert.deepEqual(vars.args, [`${ws}/src`, '***', '***', 'fallback']);
    assert.ok(!JSON.stringify(output).includes('from-env'));
    // Env values are secrets: masked in the JSON as in the table (their expansion changes the fingerprint).
    assert.deepEqual(vars.env, { KEY: '***', HOME_DIR: '***' });
    // An unresolved variable is a diagnostic where it is written, never a silent empty string.
    const unresolved = output.problems.find((p) => p.message.includes('SWITCHBOARD_IT_UNSET'));
    assert.ok(unresolved, JSON.stringify(output.problems));
    assert.deepEqual([unresolved.file, unresolved.line, unresolved.severity], [project, 8, 'error']);
  });

  it('keeps the fingerprint across whitespace, comment and key-order rewrites, and changes it with an arg', () => {
    const { ws, home } = layout();
    const file = path.join(ws, '.mcp.json');
    const fingerprintOf = (text: string) => {
      write(file, text);
      return byName(configJson(['--workspace', ws, '--home', home]), 'fp').fingerprint;
    };
    const original = fingerprintOf('{"mcpServers":{"fp":{"command":"node","args":["a","b"],"env":{"X":"1","Y":"2"}}}}');
    const rewritten = fingerprintOf(`{
  // rewritten by hand
  "mcpServers": {
    "fp": {
      "env": { "Y": "2", /* reordered */ "X": "1" },
      "args": [ "a",
                "b" ],
      "command":   "node",
    }
  }
}`);
    assert.equal(rewritten, original);
    assert.notEqual(fingerprintOf('{"mcpServers":{"fp":{"command":"node","args":["a","c"],"env":{"X":"1","Y":"2"}}}}'), original);
    assert.notEqual(fingerprintOf('{"mcpServers":{"fp":{"command":"node","args":["a","b"],"env":{"X":"1","Y":"3"}}}}'), original);
  });

  it('prints absolute paths when given relative ones', () => {
    const { root, ws } = layout();
    const project = writeJson(path.join(ws, '.mcp.json'), { mcpServers: { a: { command: 'x' } } });
    writeJson(path.join(root, 'mine.json'), { mcpServers: { mine: { command: 'm' } } });
    const output = configJson(['--workspace', 'alpha', '--home', 'home', '--local', 'mine.json'], {}, root);
    assert.deepEqual(output.servers.map((s) => [s.name, s.folder, s.source.file]), [
      ['mine', ws, path.join(root, 'mine.json')],
      ['a', ws, project],
    ]);
  });

  describe('usage errors exit 2 with a one-line message and a hint', () => {
    const cases: [string, (dirs: { root: string; ws: string }) => string[], RegExp][] = [
      ['no command', () => [], /missing command/],
      ['an unknown command', () => ['frobnicate'], /unknown command 'frobnicate'/],
      ['an unknown option', ({ ws }) => ['config', '--workspace', ws, '--verbose'], /unknown option '--verbose'/],
      ['a missing value at the end', () => ['config', '--workspace'], /'--workspace' needs a value/],
      ['a missing value before another option', ({ ws }) => ['config', '--home', '--workspace', ws], /'--home' needs a value/],
      ['no --workspace', () => ['config', '--json'], /missing --workspace/],
      ['a workspace that is a file', ({ root }) => ['config', '--workspace', path.join(root, 'file.txt')], /not a directory/],
      ['a workspace that does not exist', ({ root }) => ['config', '--workspace', path.join(root, 'nope')], /not a directory/],
      ['a stray argument', ({ ws }) => ['config', '--workspace', ws, 'extra'], /unexpected argument 'extra'/],
      ['a value for a flag that takes none', ({ ws }) => ['config', '--workspace', ws, '--json=yes'], /takes no value/],
      ['--home given twice', ({ ws }) => ['config', '--workspace', ws, '--home', ws, '--home', ws], /given twice/],
    ];
    for (const [what, argsOf, message] of cases) {
      it(what, () => {
        const { root, ws } = layout();
        write(path.join(root, 'file.txt'), 'x');
        const result = runCli(argsOf({ root, ws }));
        assert.equal(result.status, 2, `stdout: ${result.stdout} stderr: ${result.stderr}`);
        assert.equal(result.stdout, '');
        const lines = result.stderr.trimEnd().split('\n');
        assert.equal(lines.length, 2, result.stderr);
        assert.match(lines[0], /^switchboard: /);
        assert.match(lines[0], message);
        assert.match(lines[1], /--help/);
      });
    }
  });

  it('masks secrets given as arguments (--api-key=${env:TOK}, --token V, URL credentials) in the JSON and the table', () => {
    const { ws, home } = layout();
    write(path.join(ws, '.mcp.json'), JSON.stringify({
      mcpServers: {
        api: { command: 'npx', args: ['-y', 'some-server', '--api-key=${env:SWITCHBOARD_IT_TOK}', '--token', 'ghp_literal0123456789', 'https://bob:pw-0123456@api.example.com/mcp?access_token=at-0123456'] },
      },
    }));
    const env = { SWITCHBOARD_IT_TOK: 'sk-from-the-env-0123456789' };
    const json = runCli(['config', '--workspace', ws, '--home', home, '--json'], env);
    const table = runCli(['config', '--workspace', ws, '--home', home], env);
    const api = byName(JSON.parse(json.stdout) as JsonOutput, 'api');
    assert.deepEqual(api.args, ['-y', 'some-server', '--api-key=***', '--token', '***', 'https://***:***@api.example.com/mcp?access_token=***']);
    assert.ok(table.stdout.includes("npx -y some-server --api-key=*** --token *** 'https://***:***@api.example.com/mcp?access_token=***'"), table.stdout);
    for (const secret of ['sk-from-the-env-0123456789', 'ghp_literal0123456789', 'pw-0123456', 'at-0123456']) {
      assert.ok(!json.stdout.includes(secret) && !table.stdout.includes(secret), `${secret} leaked`);
    }
  });

  it('prints a readable table with masked secrets, then shadowed and problems sections', () => {
    const { ws, home } = layout();
    const projectText = `{
  "mcpServers": {
    "files": { "command": "node", "args": ["server.js", "--name", "two words"], "env": { "TOKEN": "s3cret-value" } },
    "remote": { "url": "https://user:pa55word@example.com/mcp", "headers": { "Authorization": "Bearer abc123" } },
    "odd": { "command": "x", "color": "blue" }
  }
}
`;
    const project = write(path.join(ws, '.mcp.json'), projectText);
    const user = writeJson(path.join(home, '.mcp.json'), { mcpServers: { files: { command: 'user-files' } } });

    const result = runCli(['config', '--workspace', ws, '--home', home]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    const out = result.stdout;
    const lines = out.split('\n');
    assert.match(lines[0], /^NAME\s+SCOPE\s+TYPE\s+COMMAND\/URL\s+SOURCE$/);
    // Columns line up: every row starts its SCOPE column where the header does.
    const scopeColumn = lines[0].indexOf('SCOPE');
    for (const name of ['files', 'odd', 'remote']) {
      const row = lines.find((line) => line.startsWith(`${name} `));
      assert.ok(row, `row for ${name} in:\n${out}`);
      assert.equal(row.indexOf('project'), scopeColumn, row);
    }
    assert.ok(out.includes("node server.js --name 'two words'"), out);
    assert.ok(out.includes(`${project}:3:5`), out);
    // Secrets never appear in the table; their names do.
    for (const secret of ['s3cret-value', 'abc123', 'pa55word']) assert.ok(!out.includes(secret), `${secret} leaked:\n${out}`);
    assert.ok(out.includes('TOKEN=***'), out);
    assert.ok(out.includes('Authorization=***'), out);

    assert.match(out, /^Shadowed \(1\):$/m);
    assert.ok(out.includes(`files (user) ${user}:3:5  shadowed by project ${project}`), out);
    assert.match(out, /^Problems \(1\):$/m);
    assert.ok(out.includes(`${project}:5:${columnOf(projectText, 5, '"color"')} warning `), out);
  });

  it('"dangerFlags" lists, per server with any, the flag ids in their fixed order; the table gives each reason', () => {
    const { ws, home } = layout();
    writeJson(path.join(ws, '.mcp.json'), {
      mcpServers: {
        installer: { command: 'bash', args: ['-c', 'curl -fsSL https://get.example.com/x.sh | sudo sh'] },
        cleaner: { command: 'sh', args: ['-c', 'rm -rf ./cache'], env: { LD_PRELOAD: 'evil.so' } },
        calm: { command: 'node', args: ['server.js'] },
      },
    });
    writeJson(path.join(home, '.mcp.json'), { mcpServers: { metadata: { type: 'http', url: 'http://169.254.169.254/latest' } } });
    const output = configJson(['--workspace', ws, '--home', home]);
    assert.deepEqual(output.dangerFlags, {
      cleaner: ['rm-rf', 'env-override'],
      installer: ['pipe-to-shell', 'sudo'],
      metadata: ['private-address'],
    });
    assert.deepEqual(Object.keys(output.dangerFlags), ['cleaner', 'installer', 'metadata'], 'in the order of "servers"');

    const table = runCli(['config', '--workspace', ws, '--home', home]);
    assert.equal(table.status, 0);
    assert.match(table.stdout, /^ {4}! pipe-to-shell: downloads a script and pipes it straight into a shell \(curl .*\)$/m);
    assert.match(table.stdout, /^ {4}! sudo: /m);
    assert.match(table.stdout, /^ {4}! env-override: .*\(LD_PRELOAD\)$/m);
    assert.ok(!table.stdout.includes('evil.so'), 'an env value leaked into the table');
  });

  it('"needsTrust" follows --trust-store: trusted definitions are false, changed ones true again', () => {
    const { root, ws, home } = layout();
    const store = path.join(root, 'state', 'trust.json');
    writeJson(path.join(ws, '.mcp.json'), { mcpServers: { a: { command: 'node', args: ['a.js'] }, b: { command: 'node', args: ['b.js'] } } });
    writeJson(path.join(home, '.mcp.json'), { mcpServers: { mine: { command: 'node' } } });
    const needs = (output: JsonOutput) => output.servers.map((s) => [s.name, s.needsTrust]);

    assert.deepEqual(needs(configJson(['--workspace', ws, '--home', home, '--trust-store', store])), [['a', true], ['b', true], ['mine', false]]);
    const trusted = runCli(['trust', 'a', '--workspace', ws, '--home', home, '--trust-store', store]);
    assert.equal(trusted.status, 0, trusted.stderr);
    assert.deepEqual(needs(configJson(['--workspace', ws, '--home', home, '--trust-store', store])), [['a', false], ['b', true], ['mine', false]]);
    assert.deepEqual(needs(configJson(['--workspace', ws, '--home', home])), [['a', true], ['b', true], ['mine', false]], 'without --trust-store, as before');

    // Reformatting (whitespace, comments, key order) keeps the trust; a changed argument does not.
    write(path.join(ws, '.mcp.json'), '{\n  // reformatted\n  "mcpServers": { "b": { "args": ["b.js"], "command": "node" }, "a": { "args": [ "a.js" ], "command": "node" } }\n}\n');
    assert.deepEqual(needs(configJson(['--workspace', ws, '--home', home, '--trust-store', store])), [['a', false], ['b', true], ['mine', false]]);
    writeJson(path.join(ws, '.mcp.json'), { mcpServers: { a: { command: 'node', args: ['a.js', '--evil'] }, b: { command: 'node', args: ['b.js'] } } });
    assert.deepEqual(needs(configJson(['--workspace', ws, '--home', home, '--trust-store', store])), [['a', true], ['b', true], ['mine', false]]);
    const table = runCli(['config', '--workspace', ws, '--home', home, '--trust-store', store]);
    assert.ok(table.stdout.includes('args[1] added: "--evil"'), table.stdout);
  });

  it('trust: an unknown name, a server of another scope or a store inside the workspace is a usage error, and nothing is written', () => {
    const { root, ws, home } = layout();
    const store = path.join(root, 'trust.json');
    writeJson(path.join(ws, '.mcp.json'), { mcpServers: { a: { command: 'node' } } });
    writeJson(path.join(home, '.mcp.json'), { mcpServers: { mine: { command: 'node' } } });
    for (const [args, message] of [
      [['trust', 'nope', '--workspace', ws, '--home', home, '--trust-store', store], /unknown server 'nope' \(project servers: a\)/],
      [['trust', 'a', 'mine', '--workspace', ws, '--home', home, '--trust-store', store], /'mine' is a user server/],
      [['trust', 'a', '--workspace', ws, '--home', home], /missing --trust-store FILE/],
      [['trust', 'a', '--refuse', '--revoke', '--workspace', ws, '--home', home, '--trust-store', store], /cannot be combined/],
      [['trust', 'a', '--workspace', ws, '--home', home, '--trust-store', path.join(ws, '.vscode', 'trust.json')], /inside the workspace folder/],
      [['config', '--workspace', ws, '--home', home, '--trust-store', path.join(ws, 'trust.json')], /inside the workspace folder/],
    ] as const) {
      const result = runCli([...args]);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
    assert.equal(fs.existsSync(store), false);
    assert.deepEqual(fs.readdirSync(ws), ['.mcp.json']);
  });

  it('says so when there are no servers', () => {
    const { ws, home } = layout();
    const result = runCli(['config', '--workspace', ws, '--home', home]);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /No servers/);
    assert.ok(result.stdout.includes(path.join(ws, '.mcp.json')), result.stdout);
    assert.match(result.stdout, /^Problems: none$/m);
  });

  it('--help exits 0 and documents the commands and options', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const result = runCli(args);
      assert.equal(result.status, 0);
      assert.equal(result.stderr, '');
      assert.match(result.stdout, /^Usage: switchboard <command>/);
      assert.match(result.stdout, /^ {2}config\s/m);
    }
    const result = runCli(['config', '--help']);
    assert.equal(result.status, 0);
    for (const flag of ['--workspace DIR', '--home DIR', '--local FILE', '--plugin FILE', '--json', 'folder-qualified']) {
      assert.ok(result.stdout.includes(flag), `${flag} missing from:\n${result.stdout}`);
    }
  });
});
