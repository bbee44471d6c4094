// The code-mode sandbox in the real engine (QuickJS in WebAssembly): what a script can reach, what it
// prints, and each bound (CPU, wall time, memory, output, calls, sleep) ending the run with its reason.
import * as assert from 'node:assert/strict';
import type { QuickJSContext, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { runInSandbox, type SandboxCall, type SandboxEngine, type SandboxOptions } from '../../src/core/code/sandbox';
import { quickJsEngine } from '../../src/node/quickjsEngine';

const noCalls: SandboxCall = async () => { throw new Error('no tools here'); };

describe('code mode: the sandbox', function () {
  this.timeout(20_000);
  const run = (code: string, options: Partial<SandboxOptions> = {}) => runInSandbox(quickJsEngine, code, { api: {}, call: noCalls, ...options });

  it('prints what console.log gets, objects as JSON, and awaits at the top level', async () => {
    const result = await run('console.log("a", 1, { b: [2] }); await sleep(1); console.log(await Promise.resolve("done"));');
    assert.deepEqual(result, { output: 'a 1 {\n  "b": [\n    2\n  ]\n}\ndone\n' });
  });

  it('calls tools through the host with the arguments as JSON, and gets their answers back as values', async () => {
    const seen: unknown[] = [];
    const call: SandboxCall = async (server, tool, args) => {
      seen.push([server, tool, args]);
      return { rows: [1, 2, 3].map((n) => ({ n, even: n % 2 === 0 })) };
    };
    const result = await run(`
      const [a, b] = await Promise.all([tools.everything.echo({ message: "hi" }), tools.fs.list_dir()]);
      console.log(a.rows.filter((r) => r.even).map((r) => r.n).join(","), b.rows.length);
    `, { api: { everything: ['echo'], fs: ['list_dir'] }, call });
    assert.deepEqual(result, { output: '2 3\n' });
    assert.deepEqual(seen, [['everything', 'echo', { message: 'hi' }], ['fs', 'list_dir', {}]]);
  });

  it('takes one object of arguments per call, whatever the object turns into as JSON', async () => {
    const seen: unknown[] = [];
    const call: SandboxCall = async (_server, _tool, args) => { seen.push(args); return null; };
    const result = await run(`
      for (const args of ["x", [1], { toJSON: () => "sneaky" }]) {
        try { await tools.s.t(args); } catch (e) { console.log(e.message); }
      }
    `, { api: { s: ['t'] }, call });
    assert.equal(result.output, 'tools.s.t takes one object of arguments\n'.repeat(3));
    assert.deepEqual(seen, []);
  });

  it('refuses a call whose arguments a replaced JSON.stringify did not make JSON, and the run goes on to a clean end', async () => {
    const seen: unknown[] = [];
    const call: SandboxCall = async (_server, _tool, args) => { seen.push(args); return 'ok'; };
    const made: { runtime: QuickJSRuntime; contexts: QuickJSContext[] }[] = [];
    // The same engine, keeping what it made so that the test can free it piece by piece: QuickJS
    // aborts when a runtime is freed with a handle still held, so a leaked promise fails here.
    const engine: SandboxEngine = async (memoryBytes) => {
      const instance = await quickJsEngine(memoryBytes);
      const module = Object.create(instance.module) as QuickJSWASMModule;
      module.newRuntime = (...args) => {
        const runtime = instance.module.newRuntime(...args);
        const kept = { runtime, contexts: [] as QuickJSContext[] };
        const newContext = runtime.newContext.bind(runtime);
        runtime.newContext = (...contextArgs) => { const context = newContext(...contextArgs); kept.contexts.push(context); return context; };
        made.push(kept);
        return runtime;
      };
      return { module, memoryExhausted: () => instance.memoryExhausted() };
    };
    const result = await runInSandbox(engine, `
      const real = JSON.stringify;
      for (const fake of [() => "{not json", () => ({ toString() { throw new Error("boom"); } }), () => undefined]) {
        JSON.stringify = fake;
        try { await tools.s.t({ a: 1 }); } catch (e) { console.log(e.message); }
      }
      JSON.stringify = real;
      console.log(await tools.s.t({ a: 2 }));
    `, { api: { s: ['t'] }, call });
    const refused = 'tools.s.t could not send its arguments: JSON.stringify did not turn them into JSON (was it replaced?)\n';
    assert.deepEqual(result, { output: `${refused.repeat(3)}ok\n` });
    assert.deepEqual(seen, [{ a: 2 }]);
    assert.equal(made.length, 1);
    for (const context of made[0].contexts) context.dispose();
    made[0].runtime.dispose();
  });

  it('throws a failed call inside the script with the host\'s reason, where try/catch sees it', async () => {
    const call: SandboxCall = async () => { throw new Error('the person rejected the call: not this file'); };
    const result = await run(`
      try { await tools.fs.write_file({ path: "x" }); } catch (e) { console.log("caught:", e.message); }
      await tools.fs.write_file({ path: "y" });
    `, { api: { fs: ['write_file'] }, call });
    assert.equal(result.output, 'caught: the person rejected the call: not this file\n');
    assert.equal(result.error, 'Error: the person rejected the call: not this file');
  });

  for (const [what, code, pattern] of [
    ['require', 'require("fs")', /'require' is not defined/],
    ['process', 'process.exit(1)', /'process' is not defined/],
    ['fetch', 'await fetch("http://127.0.0.1/")', /'fetch' is not defined/],
    ['import()', 'await import("fs")', /could not load module|not supported|import/i],
    ['setTimeout', 'setTimeout(() => {}, 1)', /'setTimeout' is not defined/],
    ['a host object through the tools', 'tools.constructor.constructor("return process")().exit(1)', /'process' is not defined/],
  ] as const) {
    it(`refuses ${what}: the run ends with an error and the host goes on`, async () => {
      const result = await run(code);
      assert.match(result.error ?? '', pattern);
    });
  }

  it('ends an endless loop at the CPU budget, uncatchably', async () => {
    const started = Date.now();
    const result = await run('try { for (;;) {} } catch (e) { console.log("caught"); } console.log("after");', { limits: { cpuMs: 200 } });
    assert.equal(result.output, '');
    assert.match(result.error ?? '', /more than 200 ms of CPU time/);
    assert.ok(Date.now() - started < 5000);
  });

  it('ends a run that waits past its wall time, even between calls', async () => {
    const result = await run('for (;;) await sleep(50);', { limits: { wallMs: 300 } });
    assert.match(result.error ?? '', /ran longer than 300 ms/);
  });

  it('ends a run over its memory bound, even one that catches the "out of memory"', async () => {
    const caught = await run('try { const a = []; for (;;) a.push(new Array(10000).fill(1)); } catch (e) { console.log("caught"); } for (;;) {}', { limits: { memoryBytes: 32 * 1024 * 1024 } });
    assert.match(caught.error ?? '', /more than 32 MB of memory/);
    const result = await run('const a = []; for (;;) a.push(new Array(10000).fill(a.length));', { limits: { memoryBytes: 32 * 1024 * 1024 } });
    assert.match(result.error ?? '', /more than 32 MB of memory/);
  });

  it('ends a run that prints more than its output bound, keeping what fits', async () => {
    const result = await run('for (let i = 0; ; i++) console.log("line " + i);', { limits: { outputChars: 100 } });
    assert.equal(result.output.length, 100);
    assert.match(result.error ?? '', /printed more than 100 characters/);
  });

  it('bounds a single sleep and the number of tool calls', async () => {
    assert.match((await run('await sleep(60000)', { limits: { maxSleepMs: 1000 } })).error ?? '', /sleep\(ms\) takes 0 to 1000 ms/);
    const many = await run('for (let i = 0; i < 10; i++) await tools.s.t({});', { api: { s: ['t'] }, call: async () => ({}), limits: { maxCalls: 3 } });
    assert.match(many.error ?? '', /more than 3 tool calls/);
  });

  it('reports a syntax error, deep recursion and a promise nobody settles', async () => {
    assert.match((await run('const = 1')).error ?? '', /SyntaxError/);
    assert.match((await run('const f = (n) => f(n + 1) + 1; f(0);')).error ?? '', /RangeError|stack/i);
    assert.match((await run('await new Promise(() => {})')).error ?? '', /never happens/);
    assert.match((await run('let o = {}; for (let i = 0; i < 100000; i++) o = { o }; JSON.stringify(o);')).error ?? '', /stack overflow|nested too deep/);
    assert.deepEqual(await run('const f = (n) => (n ? f(n - 1) + 1 : 0); console.log(f(1000));'), { output: '1000\n' });
  });
});
