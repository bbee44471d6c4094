// The stderr of a failed start: the lines stating the error come first (not Node's stack tail or a
// CLI's usage text), and a missing environment variable becomes a hint naming it and where to set it.
import * as assert from 'node:assert/strict';
import { failureHint, failureSummary, missingVariable, serverFailureHint, statesCause, stderrExcerpt } from '../../src/core/lifecycle/stderrCause';
import { makeServer } from './helpers/lifecycle';

/** What `node dist/index.js` prints when dist/ was never built (Node 20). */
const NODE_MODULE_NOT_FOUND = [
  'node:internal/modules/cjs/loader:1228',
  '  throw err;',
  '  ^',
  '',
  "Error: Cannot find module '/home/ada/proj/dist/index.js'",
  '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
  '    at Module._load (node:internal/modules/cjs/loader:1051:27)',
  '    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:174:12)',
  '    at node:internal/main/run_main_module:28:49 {',
  "  code: 'MODULE_NOT_FOUND',",
  '  requireStack: []',
  '}',
  '',
  'Node.js v20.11.1',
];

/** A server that checks its token first, then prints its usage text (as @sentry/mcp-server does). */
const SENTRY_NO_TOKEN = [
  'Error: No access token was provided. Pass one with `--access-token` or set SENTRY_ACCESS_TOKEN.',
  'Usage: sentry-mcp --access-token=<token> [--host=<host>]',
  '',
  'Options:',
  '  --access-token <token>   Sentry user auth token (or SENTRY_ACCESS_TOKEN)',
  '  --host <host>            Sentry host (or SENTRY_HOST), default sentry.io',
  '  --mcp-url <url>          Override the MCP server URL',
  '  --sentry-dsn <dsn>       Report errors of the server itself (or SENTRY_DSN)',
  '  --skills <list>          Skills to enable (comma separated)',
  '  -h, --help               Show this help',
  '  -v, --version            Show the version',
];

/** An ES module server that throws at load when its variable is unset. */
const GITHUB_THROWS = [
  'file:///home/ada/.npm/_npx/1a2b/node_modules/github-mcp/dist/index.js:12',
  "    throw new Error('GITHUB_PERSONAL_ACCESS_TOKEN environment variable is required');",
  '          ^',
  '',
  'Error: GITHUB_PERSONAL_ACCESS_TOKEN environment variable is required',
  '    at file:///home/ada/.npm/_npx/1a2b/node_modules/github-mcp/dist/index.js:12:11',
  '    at ModuleJob.run (node:internal/modules/esm/module_job:222:25)',
  '    at async ModuleLoader.import (node:internal/modules/esm/loader:316:24)',
  '    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:123:5)',
  '',
  'Node.js v20.11.1',
];

/** A commander CLI that rejects its arguments: the error line, then the whole help. */
const COMMANDER_USAGE = [
  "error: required option '--api-key <key>' not specified",
  'Usage: weather-mcp [options]',
  '',
  'Options:',
  '  -V, --version      output the version number',
  '  --api-key <key>    API key (or set WEATHER_API_KEY)',
  '  --units <units>    metric or imperial (default: "metric")',
  '  -h, --help         display help for command',
];

describe('stderr cause', () => {
  describe('stderrExcerpt', () => {
    it('puts "Cannot find module" before the tail of Node\'s stack', () => {
      const excerpt = stderrExcerpt(NODE_MODULE_NOT_FOUND, 5);
      assert.equal(excerpt[0], "Error: Cannot find module '/home/ada/proj/dist/index.js'");
      assert.deepEqual(excerpt.slice(1), ["  code: 'MODULE_NOT_FOUND',", '  requireStack: []', '}', 'Node.js v20.11.1']);
    });

    it('puts the error line before usage text, and keeps the last lines after it', () => {
      const excerpt = stderrExcerpt(SENTRY_NO_TOKEN, 4);
      assert.deepEqual(excerpt, [SENTRY_NO_TOKEN[0], ...SENTRY_NO_TOKEN.slice(-3)]);
      const commander = stderrExcerpt(COMMANDER_USAGE, 3);
      assert.deepEqual(commander, [COMMANDER_USAGE[0], ...COMMANDER_USAGE.slice(-2)]);
    });

    it('takes the error line, not the source line Node quotes above it, and shows a repeated cause once', () => {
      const excerpt = stderrExcerpt(GITHUB_THROWS, 8);
      assert.equal(excerpt[0], 'Error: GITHUB_PERSONAL_ACCESS_TOKEN environment variable is required');
      assert.equal(excerpt.filter((line) => line === excerpt[0]).length, 1);
      assert.equal(excerpt.at(-1), 'Node.js v20.11.1');
      assert.equal(excerpt.length, 8);
      const twice = ['Error: BRAVE_API_KEY is not set', 'retrying', 'Error: BRAVE_API_KEY is not set', 'bye'];
      assert.deepEqual(stderrExcerpt(twice, 3), ['Error: BRAVE_API_KEY is not set', 'retrying', 'bye']);
    });

    it('is the plain tail when no line states an error, without blank lines', () => {
      const tail = ['starting', '', 'listening on stdio', 'bye'];
      assert.deepEqual(stderrExcerpt(tail, 2), ['listening on stdio', 'bye']);
      assert.deepEqual(stderrExcerpt([], 5), []);
    });

    it('finds the cause of a Python traceback and keeps the order of several causes', () => {
      const python = [
        'Traceback (most recent call last):',
        '  File "/srv/server.py", line 3, in <module>',
        '    import mcp',
        "ModuleNotFoundError: No module named 'mcp'",
      ];
      assert.equal(stderrExcerpt(python, 2)[0], "ModuleNotFoundError: No module named 'mcp'");
      const two = ['warn: config file not found, using defaults', 'Error: listen EADDRINUSE: address already in use :::3000', 'fatal: giving up'];
      assert.deepEqual(stderrExcerpt(two, 2), [two[1], two[2]]);
    });

    it('cuts very long lines', () => {
      const [line] = stderrExcerpt([`Error: ${'x'.repeat(5000)}`], 1);
      assert.ok(line.length <= 400 && line.endsWith('…'), String(line.length));
    });
  });

  it('statesCause: error lines yes; stack frames, Node\'s footer, usage and progress no', () => {
    for (const line of ["Error: Cannot find module 'x'", 'TypeError [ERR_INVALID_ARG_TYPE]: bad', 'error: unknown option --x', 'BRAVE_API_KEY is not set', 'spawn uvx ENOENT']) {
      assert.ok(statesCause(line), line);
    }
    for (const line of ['    at Module._load (node:internal/modules/cjs/loader:1051:27)', 'Node.js v20.11.1', '  requireStack: []', 'Options:', 'Server running on stdio', '']) {
      assert.ok(!statesCause(line), line);
    }
  });

  describe('missingVariable', () => {
    it('finds the variable a server asks for, in the ways servers say it', () => {
      assert.equal(missingVariable(SENTRY_NO_TOKEN), 'SENTRY_ACCESS_TOKEN');
      assert.equal(missingVariable(GITHUB_THROWS), 'GITHUB_PERSONAL_ACCESS_TOKEN');
      assert.equal(missingVariable(['Error: BRAVE_API_KEY is not set']), 'BRAVE_API_KEY');
      assert.equal(missingVariable(['Missing required environment variable: NOTION_API_TOKEN']), 'NOTION_API_TOKEN');
      assert.equal(missingVariable(['Error: environment variable $SLACK_BOT_TOKEN is not set']), 'SLACK_BOT_TOKEN');
      assert.equal(missingVariable(['Error: No access token. Pass --token or via `LINEAR_API_KEY`.']), 'LINEAR_API_KEY');
    });

    it('finds none in a stack, in usage text, or in an error code', () => {
      assert.equal(missingVariable(NODE_MODULE_NOT_FOUND), undefined);
      assert.equal(missingVariable(COMMANDER_USAGE), undefined, 'usage text names WEATHER_API_KEY, but no error line does');
      assert.equal(missingVariable(["Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /srv/x.js"]), undefined);
      assert.equal(missingVariable(['Error: could not set NODE_OPTIONS=--max-old-space-size=4096']), undefined);
    });
  });

  describe('hints', () => {
    const entry = { name: 'sentry', scope: 'user', file: '/home/ada/.mcp.json', envNames: [] };

    it('says which variable to set and where: the entry\'s "env" in its file, or an input', () => {
      assert.equal(
        failureHint(SENTRY_NO_TOKEN, entry),
        'set SENTRY_ACCESS_TOKEN: add it to the "env" of "sentry" in /home/ada/.mcp.json (user scope), e.g. "SENTRY_ACCESS_TOKEN": "${input:sentry-SENTRY_ACCESS_TOKEN}" to be asked for it once (kept in the secret store)',
      );
    });

    it('says to check the value when the entry sets the variable already', () => {
      const hint = failureHint(SENTRY_NO_TOKEN, { ...entry, envNames: ['SENTRY_ACCESS_TOKEN'] });
      assert.match(hint ?? '', /^the server says SENTRY_ACCESS_TOKEN is missing, but the "env" of "sentry" in \/home\/ada\/\.mcp\.json \(user scope\) sets it: check its value there/);
    });

    it('points to the environment for an entry the person cannot edit (managed, plugin)', () => {
      assert.equal(
        failureHint(SENTRY_NO_TOKEN, { ...entry, scope: 'plugin', file: '/ext/pub.tool/package.json' }),
        'set SENTRY_ACCESS_TOKEN in the environment VS Code starts with (the plugin entry "sentry" in /ext/pub.tool/package.json cannot be edited here)',
      );
    });

    it('gives none when stderr names no variable', () => {
      assert.equal(failureHint(NODE_MODULE_NOT_FOUND, entry), undefined);
    });

    it('serverFailureHint reads the entry of a configured server', () => {
      const server = makeServer('gh', { scope: 'project', source: { file: '/ws/.mcp.json', line: 3, column: 5, endLine: 9, endColumn: 6, offset: 0, length: 0 } }, { env: { GITHUB_HOST: 'x' } });
      assert.match(serverFailureHint(server, GITHUB_THROWS) ?? '', /^set GITHUB_PERSONAL_ACCESS_TOKEN: add it to the "env" of "gh" in \/ws\/\.mcp\.json \(project scope\)/);
    });
  });

  describe('failureSummary', () => {
    it('adds the first line stating the cause, and the hint', () => {
      assert.equal(
        failureSummary('process exited with code 1 during startup', NODE_MODULE_NOT_FOUND),
        "process exited with code 1 during startup (stderr: Error: Cannot find module '/home/ada/proj/dist/index.js')",
      );
      assert.equal(failureSummary('process exited with code 1 during startup', [], 'set X_Y'), 'process exited with code 1 during startup — set X_Y');
    });

    it('does not repeat a cause the error already quotes', () => {
      const error = 'connection to the server ended: exited (last stderr line: Error: BRAVE_API_KEY is not set)';
      assert.equal(failureSummary(error, ['Error: BRAVE_API_KEY is not set']), error);
    });
  });
});
