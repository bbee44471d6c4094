import * as assert from 'node:assert/strict';
import {
  ToolCallGate, ToolCallRefusedError, handOverToolCaller, type ToolCallDecisionBasis, type ToolCallRecord, type ToolCallStatus, type ToolCallRefusalCode,
} from '../../src/core/calls';
import { closestNames } from '../../src/core/naming/suggestions';
import type { EffectiveServer } from '../../src/core/config/types';
import { ConnectError } from '../../src/core/lifecycle/errors';
import { ServerRegistry } from '../../src/core/lifecycle/registry';
import type { ToolInfo } from '../../src/core/lifecycle/types';
import { deferred, FakeClock, FakeConnector, flush, makeServer, RecordingLog } from './helpers/lifecycle';

const tool = (name: string): ToolInfo => ({ name, inputSchema: { type: 'object' } });
const TOOLS = ['echo', 'read_file', 'write_file', 'delete_file'].map(tool);

/** How a fake decision step says it decided. */
const BY_TEST: ToolCallDecisionBasis = { decidedBy: { kind: 'default', detail: 'test' }, verdict: 'allow', why: 'the test decided' };

function setup(options: { tools?: Record<string, ToolCallStatus>; decide?: ConstructorParameters<typeof ToolCallGate>[0]['decide']; settling?: () => Promise<void> | undefined } = {}) {
  const clock = new FakeClock();
  const connector = new FakeConnector();
  connector.setup = (connection) => connection.setPages('tools', [TOOLS]);
  const registry = new ServerRegistry({ connector, clock, logFor: () => new RecordingLog() });
  const statuses = options.tools ?? {};
  const gate = new ToolCallGate({
    registry,
    clock,
    decide: options.decide,
    tools: { status: (serverId, name) => statuses[`${serverId}/${name}`], ...(options.settling ? { settling: options.settling } : {}) },
  });
  const records: ToolCallRecord[] = [];
  gate.onDidCall((record) => records.push(record));
  const start = async (...servers: EffectiveServer[]) => {
    registry.reconcile(servers);
    await registry.settled();
    await registry.catalogsLoaded();
  };
  const dispose = () => { gate.dispose(); registry.dispose(); };
  return { clock, connector, registry, gate, records, start, dispose };
}

/** Rejects with a refusal of this code and exactly this message. */
async function refused(call: Promise<unknown>, code: ToolCallRefusalCode, message: string | RegExp): Promise<void> {
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof ToolCallRefusedError, `not a refusal: ${String(error)}`);
    assert.equal(error.code, code);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

const FLAGGED: ToolCallStatus = {
  changed: false, blocked: true,
  findings: [
    { id: 'secretly', kind: 'instructions', reason: 'asks for something to be done secretly', field: 'description', match: 'secretly' },
    { id: 'secretly', kind: 'instructions', reason: 'asks for something to be done secretly', field: 'inputSchema', path: '/x', match: 'covertly' },
  ],
};

describe('ToolCallGate', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => { cleanup?.(); cleanup = undefined; });

  it('calls a listed tool of a ready server, forwarding arguments and request options, and records it', async () => {
    const h = setup();
    cleanup = h.dispose;
    await h.start(makeServer('fs'));
    const abort = new AbortController();
    const onProgress = (): void => undefined;
    const { result, record } = await h.gate.call({ serverId: 'fs', tool: 'echo', arguments: { text: 'hi' }, caller: 'test', timeoutMs: 5, signal: abort.signal, onProgress });
    assert.deepEqual(result, { content: [{ type: 'text', text: 'called echo' }] });
    assert.equal(record, h.records[0], 'the caller gets the record the history is told');
    assert.deepEqual(record.decision, { kind: 'allow', decidedBy: { kind: 'default' }, verdict: 'allow', why: 'allowed' }, 'no decision step: allowed by default');
    const [sent] = h.connector.last('fs').calls;
    assert.deepEqual(sent.args, { text: 'hi' });
    assert.deepEqual([sent.options.timeoutMs, sent.options.signal, sent.options.onProgress], [5, abort.signal, onProgress]);
    assert.equal(h.records.length, 1);
    assert.deepEqual(h.records[0].outcome, { kind: 'result', result });
    assert.deepEqual(h.records[0].arguments, { text: 'hi' });
    assert.equal(h.records[0].request.caller, 'test');
  });

  it('refuses an unknown server, with the configured ids or the close ones', async () => {
    const h = setup();
    cleanup = h.dispose;
    await h.start(makeServer('everything'), makeServer('memory'));
    await refused(h.gate.call({ serverId: 'nope', tool: 'echo', caller: 'test' }), 'unknownServer', "unknown server 'nope' (configured: everything, memory)");
    await refused(h.gate.call({ serverId: 'evrything', tool: 'echo', caller: 'test' }), 'unknownServer', "unknown server 'evrything'; did you mean 'everything'?");
  });

  it('refuses a server that is not ready, saying what it is and why', async () => {
    const h = setup();
    cleanup = h.dispose;
    h.connector.plan('broken', new ConnectError('command not found: nope (PATH searched: /usr/bin)'));
    await h.start(
      makeServer('broken'),
      makeServer('project', { scope: 'project', source: { file: '/ws/.mcp.json', line: 3, column: 5, endLine: 3, endColumn: 14, offset: 0, length: 0 } }),
      makeServer('off', { disabled: true, source: { file: '/home/ada/.mcp.json', line: 7, column: 5, endLine: 7, endColumn: 10, offset: 0, length: 0 } }),
      makeServer('fs'),
    );
    await h.registry.stop('fs');
    const call = (serverId: string) => h.gate.call({ serverId, tool: 'echo', caller: 'test' });
    await refused(call('broken'), 'serverNotReady', "server 'broken' is not ready (failed: command not found: nope (PATH searched: /usr/bin))");
    await refused(call('project'), 'serverNotReady', "server 'project' is not ready (needs trust: a project server runs only once you trust its definition (/ws/.mcp.json))");
    await refused(call('off'), 'serverNotReady', "server 'off' is not ready (disabled: \"disabled\": true in /home/ada/.mcp.json:7)");
    await refused(call('fs'), 'serverNotReady', "server 'fs' is not ready (stopped)");
    assert.deepEqual(h.records.map((record) => record.outcome.kind), ['refused', 'refused', 'refused', 'refused']);
  });

  it('refuses a tool hidden by disabledTools or allowedTools, naming the file, and sends nothing', async () => {
    const h = setup();
    cleanup = h.dispose;
    const file = '/ws/.mcp.json';
    const source = { file, line: 2, column: 5, endLine: 2, endColumn: 9, offset: 0, length: 0 };
    await h.start(
      makeServer('fs', { disabledTools: ['delete_file', 'write_*'], source }),
      makeServer('ro', { allowedTools: ['read_file'], source }),
    );
    await refused(h.gate.call({ serverId: 'fs', tool: 'delete_file', caller: 'test' }), 'toolFiltered',
      `tool 'delete_file' of server 'fs' is disabled by disabledTools in ${file}`);
    await refused(h.gate.call({ serverId: 'fs', tool: 'write_file', caller: 'test' }), 'toolFiltered',
      `tool 'write_file' of server 'fs' is disabled by disabledTools in ${file} (pattern "write_*")`);
    await refused(h.gate.call({ serverId: 'ro', tool: 'echo', caller: 'test' }), 'toolFiltered',
      `tool 'echo' of server 'ro' is not in allowedTools in ${file}`);
    await refused(h.gate.call({ serverId: 'ro', tool: 'read_fil', caller: 'test' }), 'toolFiltered',
      `tool 'read_fil' of server 'ro' is not in allowedTools in ${file}; did you mean 'read_file'?`);
    assert.deepEqual(h.connector.last('fs').calls, []);
    assert.deepEqual(h.connector.last('ro').calls, []);
    assert.deepEqual((await h.gate.call({ serverId: 'ro', tool: 'read_file', caller: 'test' })).result.content, [{ type: 'text', text: 'called read_file' }]);
  });

  it('refuses a filtered tool even while its server is stopped: the configuration is the first answer', async () => {
    const h = setup();
    cleanup = h.dispose;
    await h.start(makeServer('fs', { disabledTools: ['echo'], disabled: true }));
    await refused(h.gate.call({ serverId: 'fs', tool: 'echo', caller: 'test' }), 'toolFiltered', /^tool 'echo' of server 'fs' is disabled by disabledTools in /);
  });

  it('refuses a tool the server does not list, suggesting the offered ones (never a hidden one)', async () => {
    const h = setup();
    cleanup = h.dispose;
    await h.start(makeServer('fs', { disabledTools: ['write_file'] }), makeServer('bare'));
    h.connector.last('bare').setPages('tools', []);
    await refused(h.gate.call({ serverId: 'fs', tool: 'read_fil', caller: 'test' }), 'unknownTool', "unknown tool 'read_fil' of server 'fs'; did you mean 'read_file'?");
    await assert.rejects(h.gate.call({ serverId: 'fs', tool: 'write_fil', caller: 'test' }), (error: Error) =>
      error.message.startsWith("unknown tool 'write_fil' of server 'fs'") && !error.message.includes('write_file'));
    await refused(h.gate.call({ serverId: 'fs', tool: 'zzz', caller: 'test' }), 'unknownTool', "unknown tool 'zzz' of server 'fs' (it offers: delete_file, echo, read_file)");
  });

  it('names the reason when the host refused the tool from the listing (a schema nested too deep)', async () => {
    const h = setup();
    cleanup = h.dispose;
    h.connector.setup = (connection) => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < 5000; i++) schema = { type: 'object', properties: { a: schema } };
      connection.setPages('tools', [[{ name: 'echo', inputSchema: { type: 'object' } }, { name: 'deep', inputSchema: schema }]]);
    };
    await h.start(makeServer('hostile'));
    await refused(h.gate.call({ serverId: 'hostile', tool: 'deep', caller: 'test' }), 'unknownTool', "the tool 'deep' of 'hostile' is refused: its input schema is nested more than 64 levels deep");
  });

  it('says so when the server offers no tools', async () => {
    const h = setup();
    cleanup = h.dispose;
    h.connector.setup = (connection) => { connection.supports = { ...connection.supports, tools: false }; };
    await h.start(makeServer('res'));
    await refused(h.gate.call({ serverId: 'res', tool: 'echo', caller: 'test' }), 'unknownTool', "unknown tool 'echo' of server 'res': the server offers no tools");
  });

  it('waits for a ready server\'s tool listing before calling a tool unknown', async () => {
    const h = setup();
    cleanup = h.dispose;
    const listing = deferred<{ items: ToolInfo[] }>();
    h.connector.setup = (connection) => connection.setLister('tools', () => listing.promise);
    h.registry.reconcile([makeServer('slow')]);
    await h.registry.settled();
    const call = h.gate.call({ serverId: 'slow', tool: 'echo', caller: 'test' });
    await flush();
    assert.deepEqual(h.connector.last('slow').calls, []);
    listing.resolve({ items: [tool('echo')] });
    assert.deepEqual((await call).result.content, [{ type: 'text', text: 'called echo' }]);
  });

  it('refuses a blocked tool naming each reason once, and a changed one until it is accepted', async () => {
    const h = setup({ tools: { 'fs/echo': FLAGGED, 'fs/read_file': { changed: true, blocked: false, findings: [] } } });
    cleanup = h.dispose;
    await h.start(makeServer('fs'));
    await refused(h.gate.call({ serverId: 'fs', tool: 'echo', caller: 'test' }), 'toolBlocked',
      "tool 'echo' of server 'fs' is blocked: its definition looks like instructions aimed at the model (asks for something to be done secretly). "
      + 'Review it in the MCP Switchboard Servers view; flagged tools are blocked while the user setting switchboard.blockFlaggedTools is on.');
    await refused(h.gate.call({ serverId: 'fs', tool: 'read_file', caller: 'test' }), 'toolChanged',
      "tool 'read_file' of server 'fs' changed since its definition was pinned, and nobody accepted the new one: "
      + 'review it with "MCP Switchboard: Review Tool Change" and accept it to call it again.');
    assert.deepEqual(h.connector.last('fs').calls, []);
  });

  it('lets a flagged tool through while blocking is off, and a new one', async () => {
    const h = setup({ tools: { 'fs/echo': { ...FLAGGED, blocked: false } } });
    cleanup = h.dispose;
    await h.start(makeServer('fs'));
    await h.gate.call({ serverId: 'fs', tool: 'echo', caller: 'test' });
    assert.equal(h.connector.last('fs').calls.length, 1);
  });

  it('asks the decision step with the resolved call: a denial is refused and sends nothing', async () => {
    const asked: { tool: string; server: string; status: unknown; args: unknown }[] = [];
    const h = setup({
      tools: { 'fs/echo': { ...FLAGGED, blocked: false } },
      decide: (call) => {
        asked.push({ tool: call.tool.name, server: call.server.id, status: call.status, args: call.arguments });
        return { ...BY_TEST, verdict: 'ask', decidedBy: { kind: 'person', answer: 'reject' }, kind: 'deny', reason: 'the person rejected it' };
      },
    });
    cleanup = h.dispose;
    await h.start(makeServer('fs'));
    await refused(h.gate.call({ serverId: 'fs', tool: 'echo', arguments: { a: 1 }, caller: 'test' }), 'denied',
      "the call of tool 'echo' of server 'fs' was refused: the person rejected it");
    assert.deepEqual(asked, [{ tool: 'echo', server: 'fs', status: { ...FLAGGED, blocked: false }, args: { a: 1 } }]);
    assert.deepEqual(h.connector.last('fs').calls, []);
    assert.deepEqual(h.records[0].outcome, { kind: 'refused', code: 'denied', message: "the call of tool 'echo' of server 'fs' was refused: the person rejected it" });
    assert.equal(h.records[0].sent, false, 'a denied call is recorded as never sent');
    assert.deepEqual(h.records[0].decision?.decidedBy, { kind: 'person', answer: 'reject' }, 'with who denied it');
  });

  it('sends the arguments the decision step approved (edited by a person), and records how long it took', async () => {
    const h = setup({
      decide: async () => {
        h.clock.advance(250);
        return { ...BY_TEST, kind: 'allow', arguments: { text: 'edited' } };
      },
    });
    cleanup = h.dispose;
    await h.start(makeServer('fs'));
    const { record } = await h.gate.call({ serverId: 'fs', tool: 'echo', arguments: { text: 'asked' }, caller: 'test' });
    assert.deepEqual(h.connector.last('fs').calls[0].args, { text: 'edited' });
    assert.deepEqual(record.arguments, { text: 'edited' }, 'the caller learns what the server got from the record');
    assert.deepEqual(h.records[0].arguments, { text: 'edited' });
    assert.deepEqual(h.records[0].request.arguments, { text: 'asked' });
    assert.equal(h.records[0].durationMs, 250);
    assert.equal(h.records[0].ranMs, 0);
    assert.equal(h.records[0].sent, true);
  });

  it('records the time the server took apart from the time the decision took', async () => {
    const h = setup({
      decide: async () => {
        h.clock.advance(4000);
        return { ...BY_TEST, kind: 'allow' };
      },
    });
    cleanup = h.dispose;
    await h.start(makeServer('fs'));
    h.connector.last('fs').answer = async () => {
      h.clock.advance(120);
      return { content: [] };
    };
    await h.gate.call({ serverId: 'fs', tool: 'echo', caller: 'test' });
    assert.deepEqual([h.records[0].durationMs, h.records[0].ranMs], [4120, 120]);
    const denied = setup({ decide: () => ({ ...BY_TEST, kind: 'deny', reason: 'no' }) });
    await denied.start(makeServer('fs'));
    await assert.rejects(denied.gate.call({ serverId: 'fs', tool: 'echo', caller: 'test' }));
    assert.equal(denied.records[0].ranMs, undefined, 'a call never sent never ran');
    denied.dispose();
  });

  it('fails a call the caller cancelled while the step waited with the step\'s error, recording what it asked', async () => {
    const cancelled = new Error('the call was cancelled before it was approved');
    const h = setup({ decide: () => ({ ...BY_TEST, verdict: 'ask', approvalId: 'card-1', waitedMs: 30, kind: 'cancelled', error: cancelled }) });
    cleanup = h.dispose;
    await h.start(makeServer('fs'));
    await assert.rejects(h.gate.call({ serverId: 'fs', tool: 'echo', caller: 'test' }), (error) => error === cancelled);
    assert.deepEqual(h.connector.last('fs').calls, []);
    assert.deepEqual(h.records[0].outcome, { kind: 'failed', message: cancelled.message });
    assert.equal(h.records[0].sent, false);
    assert.deepEqual([h.records[0].decision?.approvalId, h.records[0].decision?.waitedMs], ['card-1', 30]);
  });

  it('waits for the review to settle before resolving: a tool it finds changed is refused before any decision', async () => {
    const statuses: Record<string, ToolCallStatus> = {};
    const recording = deferred<void>();
    let settling: Promise<void> | undefined = recording.promise;
    let decided = 0;
    const h = setup({ tools: statuses, settling: () => settling, decide: () => { decided++; return { ...BY_TEST, kind: 'allow' }; } });
    cleanup = h.dispose;
    await h.start(makeServer('fs'));
    const call = h.gate.call({ serverId: 'fs', tool: 'echo', caller: 'test' });
    await flush();
    statuses['fs/echo'] = { changed: true, blocked: false, findings: [] };
    settling = undefined;
    recording.resolve();
    await refused(call, 'toolChanged', /changed since its definition was pinned/);
    assert.equal(decided, 0, 'the decision step never saw the changed tool');
    assert.deepEqual(h.connector.last('fs').calls, []);
  });

  it('records a call that failed on the way and rejects with its error', async () => {
    const h = setup();
    cleanup = h.dispose;
    await h.start(makeServer('fs'));
    h.connector.last('fs').answer = () => Promise.reject(new Error('request timed out after 5 ms'));
    await assert.rejects(h.gate.call({ serverId: 'fs', tool: 'echo', caller: 'test' }), { message: 'request timed out after 5 ms' });
    assert.deepEqual(h.records[0].outcome, { kind: 'failed', message: 'request timed out after 5 ms' });
    assert.equal(h.records[0].sent, true, 'it failed after it was sent');
  });
});

describe('nothing calls a tool around the gate', () => {
  it('neither the registry nor a server view has a way to call a tool', async () => {
    const h = setup();
    try {
      await h.start(makeServer('fs'));
      // @ts-expect-error the registry has no callTool: calls go through ToolCallGate.
      assert.equal(h.registry.callTool, undefined);
      assert.equal('callTool' in h.registry, false);
      const view = h.registry.get('fs')!;
      assert.equal('callTool' in view, false, 'not on the controller behind a view either');
      const methods = [ServerRegistry.prototype, Object.getPrototypeOf(view)].flatMap((proto) => Object.getOwnPropertyNames(proto));
      assert.deepEqual(methods.filter((name) => /tool/i.test(name)), []);
    } finally {
      h.dispose();
    }
  });

  it('a gate is built only on a registry, and a registry hands over its caller only once', () => {
    const fake = { get: () => undefined, list: () => [] };
    assert.throws(() => new ToolCallGate({ registry: fake }), /a tool call gate needs a ServerRegistry/);
    const registry = new ServerRegistry({ connector: new FakeConnector(), logFor: () => new RecordingLog() });
    try {
      assert.throws(() => handOverToolCaller(registry, () => Promise.resolve({ content: [] })), /already handed over its tool caller/);
    } finally {
      registry.dispose();
    }
  });
});

describe('closestNames', () => {
  it('finds typos, other cases and names that contain what was typed, closest first', () => {
    assert.deepEqual(closestNames('read_fil', ['read_file', 'write_file', 'echo']), ['read_file']);
    assert.deepEqual(closestNames('ECHO', ['echo', 'echo2']), ['echo', 'echo2']);
    assert.deepEqual(closestNames('file', ['read_file', 'write_file', 'echo']), ['read_file', 'write_file']);
    assert.deepEqual(closestNames('zzz', ['read_file', 'echo']), []);
  });
});
