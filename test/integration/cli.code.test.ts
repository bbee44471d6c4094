// `switchboard code` as a user runs it: the built CLI starts real servers (server-everything and
// server-filesystem) and runs a script in code mode's sandbox against them, in the JSON contract.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVERYTHING, FILESYSTEM } from './helperServers';
import { requireBuiltCli, runCli, TempDirs, writeJson } from './support';

interface CodeJson { output: string; calls: { server: string; tool: string; ok: boolean }[]; error?: string }

describe('switchboard code (built CLI, real servers)', function () {
  this.timeout(60_000);
  const temp = new TempDirs();
  before(requireBuiltCli);
  afterEach(() => temp.cleanup());

  /** A workspace whose user scope runs server-everything and server-filesystem over a folder of 2 000 files. */
  function workspace(): { home: string; ws: string; data: string; script(text: string): string } {
    const root = temp.make();
    const home = path.join(root, 'home');
    const ws = path.join(root, 'ws');
    // server-filesystem takes the workspace folders (MCP roots) as its allowed directories.
    const data = path.join(ws, 'data');
    fs.mkdirSync(data, { recursive: true });
    for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(data, `${i % 400 === 7 ? 'report' : 'note'}-${String(i).padStart(4, '0')}.txt`), `file ${i}\n`);
    writeJson(path.join(home, '.mcp.json'), {
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
        files: { command: process.execPath, args: [FILESYSTEM, data] },
      },
    });
    writeJson(path.join(ws, '.mcp.json'), { mcpServers: {} });
    return {
      home, ws, data,
      script(text) {
        const file = path.join(root, `script-${Math.random().toString(36).slice(2)}.js`);
        fs.writeFileSync(file, text);
        return file;
      },
    };
  }

  function code(w: ReturnType<typeof workspace>, script: string, extra: string[] = []): { status: number | null; json: CodeJson; stderr: string } {
    const result = runCli(['code', '--workspace', w.ws, '--home', w.home, '--file', w.script(script), '--json', ...extra]);
    return { status: result.status, json: JSON.parse(result.stdout) as CodeJson, stderr: result.stderr };
  }

  it('filters a large result inside the script and prints five lines of it', () => {
    const w = workspace();
    const { status, json, stderr } = code(w, `
      // list_directory declares an output schema: the call answers its structured content.
      const { content } = await tools.files.list_directory({ path: ${JSON.stringify(w.data)} });
      const lines = content.split("\\n");
      const names = lines.filter((line) => line.includes("report-"));
      console.log(names.length + " of " + lines.length + " entries are reports");
      for (const name of names.slice(0, 4)) console.log(name);
    `);
    assert.equal(status, 0, `${stderr}${JSON.stringify(json)}`);
    assert.equal(json.error, undefined);
    assert.deepEqual(json.output.trimEnd().split('\n'), [
      '5 of 2000 entries are reports', '[FILE] report-0007.txt', '[FILE] report-0407.txt', '[FILE] report-0807.txt', '[FILE] report-1207.txt',
    ]);
    assert.deepEqual(json.calls, [{ server: 'files', tool: 'list_directory', ok: true }]);
  });

  it('passes one tool\'s result to another in code, with structured content where the tool declares an output schema', () => {
    const w = workspace();
    const { status, json, stderr } = code(w, `
      const sum = await tools.everything["get-sum"]({ a: 20, b: 22 });
      const [echo] = await tools.everything.echo({ message: "sum is " + JSON.stringify(sum) });
      console.log(echo.text);
    `);
    assert.equal(status, 0, stderr);
    assert.match(json.output, /^Echo: sum is /);
    assert.match(json.output, /42/);
    assert.deepEqual(json.calls.map((c) => c.tool), ['get-sum', 'echo']);
  });

  it('throws a rejected call inside the script with the server\'s reason; uncaught, it sets error and exits 1', () => {
    const w = workspace();
    const outside = path.join(w.home, '.mcp.json');
    const { status, json } = code(w, `
      try { await tools.files.read_text_file({ path: ${JSON.stringify(outside)} }); } catch (e) { console.log("rejected: " + e.message); }
      await tools.files.read_text_file({ path: ${JSON.stringify(outside)} });
      console.log("not reached");
    `);
    assert.equal(status, 1);
    assert.match(json.output, /^rejected: files › read_text_file reported an error: .*(denied|outside)/i);
    assert.doesNotMatch(json.output, /not reached/);
    assert.match(json.error ?? '', /files › read_text_file reported an error/);
    assert.deepEqual(json.calls, [{ server: 'files', tool: 'read_text_file', ok: false }, { server: 'files', tool: 'read_text_file', ok: false }]);
  });

  for (const [what, script, pattern] of [
    ['require', 'require("child_process").execSync("touch pwned")', /'require' is not defined/],
    ['process', 'process.exit(0)', /'process' is not defined/],
    ['fetch', 'await fetch("http://127.0.0.1:9/")', /'fetch' is not defined/],
    ['import()', 'await import("node:fs")', /could not load module/],
    ['an endless loop', 'for (;;) {}', /ran longer than 3000 ms/],
  ] as const) {
    it(`ends a script that reaches for ${what} with error set and the host unharmed`, () => {
      const w = workspace();
      const { status, json } = code(w, `console.log("before"); ${script}; console.log("after");`, ['--timeout-ms', '3000']);
      assert.equal(status, 1);
      assert.equal(json.output, 'before\n');
      assert.match(json.error ?? '', pattern);
      assert.deepEqual(json.calls, []);
      assert.equal(fs.existsSync(path.join(w.ws, 'pwned')), false);
    });
  }

  it('ends a script past --timeout-ms, and prints plain output without --json', () => {
    const w = workspace();
    const slow = runCli(['code', '--workspace', w.ws, '--home', w.home, '--file', w.script('console.log("waiting"); for (;;) await sleep(100);'), '--timeout-ms', '500']);
    assert.equal(slow.status, 1);
    assert.equal(slow.stdout, 'waiting\n');
    assert.match(slow.stderr, /the script ended with an error: the script ran longer than 500 ms/);
  });

  it('exits 2 on a usage error', () => {
    const w = workspace();
    assert.equal(runCli(['code', '--workspace', w.ws, '--home', w.home]).status, 2);
    const missing = runCli(['code', '--workspace', w.ws, '--home', w.home, '--file', path.join(w.ws, 'nope.js')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--file .*nope\.js: no such file/);
    assert.equal(runCli(['code', '--workspace', w.ws, '--file', w.script('1'), '--timeout-ms', 'soon']).status, 2);
  });
});
