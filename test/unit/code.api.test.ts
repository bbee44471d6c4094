// Code mode's API over the catalog: the names a script writes, its calls through the one call path
// (refusals and tool errors thrown inside the script, structured content or content blocks returned),
// the server listing and the TypeScript declarations generated from the tools' schemas.
import * as assert from 'node:assert/strict';
import { ToolCallRefusedError, type ToolCallRequest } from '../../src/core/calls';
import { ModelToolCatalog, PersonalDataVault } from '../../src/core/chat';
import { CodeApi, runCode, serverDeclarations, serverListing } from '../../src/core/code';
import type { CallToolResult, ToolInfo } from '../../src/core/lifecycle';
import { quickJsEngine } from '../../src/node/quickjsEngine';

function catalogOf(servers: Record<string, ToolInfo[]>): ModelToolCatalog {
  return new ModelToolCatalog(Object.entries(servers).map(([id, tools]) => ({
    id, state: { kind: 'ready' }, catalog: { tools, resources: [], resourceTemplates: [], prompts: [] },
  })));
}

const rows: ToolInfo = {
  name: 'list_rows',
  description: 'Lists the rows of a table.',
  inputSchema: { type: 'object', title: 'Ignored', properties: { table: { type: 'string', description: 'Which table' }, limit: { type: 'integer' } }, required: ['table'] },
  outputSchema: { type: 'object', properties: { rows: { type: 'array', items: { type: 'object', properties: { id: { type: 'number' }, status: { enum: ['open', 'closed'] } }, required: ['id', 'status'] } } }, required: ['rows'] },
  annotations: { readOnlyHint: true },
};
const echo: ToolInfo = { name: 'echo', description: 'Echoes back the input', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } };
const write: ToolInfo = { name: 'write-note', inputSchema: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } } } };

describe('code mode: the API over the catalog', function () {
  this.timeout(20_000);
  const catalog = catalogOf({ 'db.prod': [rows], everything: [echo, write] });

  it('names servers and tools as the model knows them (the parts of mcp__<server>__<tool>)', () => {
    const api = new CodeApi(catalog);
    assert.deepEqual(api.names(), { db_prod: ['list_rows'], everything: ['echo', 'write-note'] });
    assert.equal(api.tool('db_prod', 'list_rows')?.server, 'db.prod');
    assert.equal(api.server('db.prod')?.key, 'db_prod');
  });

  it('lists the servers with their tools, and declares one server\'s tools from their schemas', async () => {
    const api = new CodeApi(catalog);
    assert.equal(serverListing(api, (id) => (id === 'everything' ? 'A test server.\nMore.' : undefined)),
      '- tools.db_prod (1 tool: list_rows)\n- tools.everything (2 tools: echo, write-note) — A test server.\n\nRead a server\'s TypeScript declarations before calling its tools.');
    const db = await serverDeclarations(api.server('db_prod')!);
    assert.match(db, /declare namespace list_rows \{\n {2}export interface Args \{\n[^}]*\* Which table\n[^}]*table: string\n {4}limit\?: number\n {2}\}/);
    assert.match(db, /export interface Result \{\n {4}rows: \{\n {6}id: number\n {6}status: \("open" \| "closed"\)\n {4}\}\[\]/);
    assert.match(db, /declare const tools: \{\n {2}db_prod: \{\n {4}\/\*\*\n {5}\* Lists the rows of a table\.\n {5}\* Read-only\.\n {5}\*\/\n {4}list_rows\(args: list_rows\.Args\): Promise<list_rows\.Result>;/);
    assert.doesNotMatch(db, /Ignored|ContentBlock/);
    const everything = await serverDeclarations(api.server('everything')!);
    assert.match(everything, /type ContentBlock =/);
    assert.match(everything, /echo\(args: echo\.Args\): Promise<ContentBlock\[\]>;/);
    assert.match(everything, /'write-note'\(args: write_note\.Args\): Promise<ContentBlock\[\]>;/);
  });

  it('never follows a schema\'s $ref to a file or a URL: that type falls back, the others stay typed', async () => {
    const api = new CodeApi(catalogOf({ s: [{ name: 'peek', inputSchema: { type: 'object', properties: { a: { $ref: 'file:///etc/passwd' } } } }, echo] }));
    const text = await serverDeclarations(api.servers[0]);
    assert.match(text, /declare namespace peek \{\n {2}\/\*\* The schema could not be turned into a type[^\n]*\*\/\n {2}export type Args = Record<string, unknown>;/);
    assert.doesNotMatch(text, /root:/);
    assert.match(text, /message: string/);
  });

  it('sends each call through the call path as caller "code", and reports every call', async () => {
    const requests: ToolCallRequest[] = [];
    const call = async (request: ToolCallRequest): Promise<CallToolResult> => {
      requests.push(request);
      if (request.tool === 'list_rows') return { content: [{ type: 'text', text: 'ignored' }], structuredContent: { rows: Array.from({ length: 10_000 }, (_, id) => ({ id, status: id % 1000 === 0 ? 'open' : 'closed' })) } };
      if (request.tool === 'write-note') throw new ToolCallRefusedError('denied', 'everything', 'write-note', "the call of tool 'write-note' of server 'everything' was refused: rejected by the user: not now");
      return { content: [{ type: 'text', text: `Echo: ${String(request.arguments?.message)}` }] };
    };
    const result = await runCode(`
      const { rows } = await tools.db_prod.list_rows({ table: "issues" });
      const open = rows.filter((r) => r.status === "open");
      console.log(open.length, "open of", rows.length);
      const [block] = await tools.everything.echo({ message: "hi" });
      console.log(block.text);
      try { await tools.everything["write-note"]({ body: "x" }); } catch (e) { console.log("refused:", e.message); }
    `, { engine: quickJsEngine, catalog, call });
    assert.equal(result.error, undefined);
    assert.equal(result.output, "10 open of 10000\nEcho: hi\nrefused: the call of tool 'write-note' of server 'everything' was refused: rejected by the user: not now\n");
    assert.deepEqual(result.calls.map(({ server, tool, ok }) => ({ server, tool, ok })), [
      { server: 'db.prod', tool: 'list_rows', ok: true }, { server: 'everything', tool: 'echo', ok: true }, { server: 'everything', tool: 'write-note', ok: false },
    ]);
    assert.deepEqual(requests.map((r) => [r.serverId, r.tool, r.caller]), [['db.prod', 'list_rows', 'code'], ['everything', 'echo', 'code'], ['everything', 'write-note', 'code']]);
  });

  it('throws a tool error (isError) with its text, and an uncaught one ends the run', async () => {
    const result = await runCode('await tools.everything.echo({ message: "x" }); console.log("not reached");', {
      engine: quickJsEngine, catalog, call: async () => ({ content: [{ type: 'text', text: 'no such table' }], isError: true }),
    });
    assert.equal(result.output, '');
    assert.equal(result.error, 'Error: everything › echo reported an error: no such table');
    assert.deepEqual(result.calls, [{ server: 'everything', tool: 'echo', ok: false, error: 'everything › echo reported an error: no such table' }]);
  });

  // A call that answers only when its request's signal aborts (an approval card nobody answers).
  const waitingCall = (requests: ToolCallRequest[]) => (request: ToolCallRequest): Promise<CallToolResult> => {
    requests.push(request);
    return new Promise((_resolve, reject) => {
      request.signal?.addEventListener('abort', () => reject(new Error('the call was cancelled')), { once: true });
    });
  };

  it('ends a call still waiting when the run hits its wall time, so that a late approval runs nothing', async () => {
    const requests: ToolCallRequest[] = [];
    const result = await runCode('await tools.everything.echo({ message: "x" }); console.log("not reached");', {
      engine: quickJsEngine, catalog, call: waitingCall(requests), limits: { wallMs: 300 },
    });
    assert.match(result.error ?? '', /ran longer than 300 ms/);
    assert.equal(requests.length, 1);
    assert.equal(requests[0].signal?.aborted, true);
    assert.deepEqual(result.calls, [{ server: 'everything', tool: 'echo', ok: false, error: 'the script ended before this call did; the call was cancelled' }]);
  });

  it('ends the calls a script left in flight when it ends normally, and when its caller cancels', async () => {
    const requests: ToolCallRequest[] = [];
    const done = await runCode('tools.everything.echo({ message: "left" }); console.log("done");', { engine: quickJsEngine, catalog, call: waitingCall(requests) });
    assert.deepEqual([done.output, done.error], ['done\n', undefined]);
    assert.equal(requests.length, 1);
    assert.equal(requests[0].signal?.aborted, true);
    assert.deepEqual(done.calls.map(({ ok, error }) => [ok, error]), [[false, 'the script ended before this call did; the call was cancelled']]);

    const caller = new AbortController();
    const cancelled = runCode('await tools.everything.echo({ message: "x" });', {
      engine: quickJsEngine, catalog, signal: caller.signal, call: (request) => { setTimeout(() => caller.abort(), 10); return waitingCall(requests)(request); },
    });
    const result = await cancelled;
    assert.equal(result.error, 'the run was cancelled');
    assert.equal(requests.length, 2);
    assert.equal(requests[1].signal?.aborted, true);
    assert.notEqual(requests[1].signal, caller.signal);
    const late = await runCode('await tools.everything.echo({ message: "x" });', { engine: quickJsEngine, catalog, signal: caller.signal, call: waitingCall(requests) });
    assert.equal(late.error, 'the run was cancelled');
    assert.equal(requests.length, 2, 'a run cancelled before it starts sends nothing');
  });

  it('with personal data masking, masks the output and restores placeholders only in call arguments', async () => {
    const vault = new PersonalDataVault();
    const sent: unknown[] = [];
    const first = await runCode('const [b] = await tools.everything.echo({ message: "who" }); console.log(b.text);', {
      engine: quickJsEngine, catalog, vault, call: async () => ({ content: [{ type: 'text', text: 'Ada <ada@example.org>, +44 20 7946 0958' }] }),
    });
    assert.equal(first.output, 'Ada <[EMAIL_1]>, [PHONE_1]\n');
    await runCode('await tools.everything["write-note"]({ to: "[EMAIL_1]", body: "call [PHONE_1] or [EMAIL_9]" });', {
      engine: quickJsEngine, catalog, vault, call: async (request) => { sent.push(request.arguments); return { content: [] }; },
    });
    assert.deepEqual(sent, [{ to: 'ada@example.org', body: 'call +44 20 7946 0958 or [EMAIL_9]' }]);
  });
});
