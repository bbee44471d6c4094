// The input-resolving connector (src/vscode/inputs/inputResolvingConnector.ts imports nothing from vscode at
// run time) behind the one RedactingConnector it reports its values to, as the extension stacks them,
// and the redacting wrappers, with the lifecycle's fake connector.
import * as assert from 'node:assert/strict';
import type { InputDefinition } from '../../src/core/config/types';
import { ConnectError } from '../../src/core/lifecycle/errors';
import type { ConnectRequest, ServerConnection } from '../../src/core/lifecycle/ports';
import { redactError, redactingLog, redactValue, secretForms } from '../../src/core/lifecycle/redactConnection';
import { RedactingConnector } from '../../src/core/lifecycle/redactingConnector';
import { ServerController } from '../../src/core/lifecycle/serverController';
import { DEFAULT_LIFECYCLE_SETTINGS } from '../../src/core/lifecycle/settings';
import { InputResolvingConnector } from '../../src/vscode/inputs/inputResolvingConnector';
import { inputIndexKeyOf, inputKeyOf, inputOwnerOf, parseInputIndex, type InputOwner } from '../../src/vscode/inputs/inputKeys';
import type { InputRequester } from '../../src/vscode/inputs/workspaceInputs';
import { deferred, FakeClock, FakeConnection, FakeConnector, flush, makeServer, RecordingLog } from './helpers/lifecycle';

const CANARY = 'canary-7d1e0b5a-secret';

/** Stored values in memory under the real keys; `ensure` records who asked and fills in `answers` (undefined = cancelled). */
class FakeInputs {
  /** By SecretStorage key (inputKeyOf). */
  readonly byKey = new Map<string, string>();
  readonly asked: { ids: readonly string[]; requester: InputRequester }[] = [];
  constructor(private readonly answers: Record<string, string | undefined> = {}) {}

  /** The value stored for a user-scope server's id. */
  readonly stored = { get: (id: string): string | undefined => this.byKey.get(inputKeyOf('ws', { scope: 'user', file: '' }, id)) };

  async ensure(ids: readonly string[], requester: InputRequester): Promise<void> {
    this.asked.push({ ids, requester });
    for (const id of ids) {
      const key = inputKeyOf('ws', requester.owner, id);
      if (this.byKey.has(key)) continue;
      const answer = requester.interactive ? this.answers[id] : undefined;
      if (answer === undefined) throw new Error(`input ${id} was not provided`);
      this.byKey.set(key, answer);
    }
  }

  async values(ids: readonly string[], owner: InputOwner): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const id of ids) {
      const value = this.byKey.get(inputKeyOf('ws', owner, id));
      if (value === undefined) throw new Error(`input ${id} was not provided`);
      values[id] = value;
    }
    return values;
  }
}

const server = makeServer('api', { needsInput: ['token'] }, {
  command: 'node',
  args: ['server.js', '--token=${input:token}'],
  env: { API_TOKEN: '${input:token}' },
});

function request(overrides: Partial<ConnectRequest> = {}): ConnectRequest {
  return {
    server,
    log: new RecordingLog(),
    roots: () => [],
    startupTimeoutMs: 1000,
    shutdownGraceMs: 10,
    trace: true,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** The stack the extension builds: the redaction in front, the input resolution behind it. */
function resolving(options: ConstructorParameters<typeof InputResolvingConnector>[0]): RedactingConnector {
  return new RedactingConnector(new InputResolvingConnector(options));
}

describe('InputResolvingConnector', () => {
  it('asks for the missing values in prepare, with the server and whether a person may be asked', async () => {
    const inputs = new FakeInputs({ token: CANARY });
    const definition: InputDefinition = { id: 'token', type: 'promptString', password: true, source: server.source };
    const connector = new InputResolvingConnector({ inner: new FakeConnector(), inputs, definitionOf: (_s, id) => (id === 'token' ? definition : undefined) });
    await connector.prepare({ server, automatic: false, signal: new AbortController().signal });
    assert.equal(inputs.asked.length, 1);
    assert.deepEqual(inputs.asked[0].ids, ['token']);
    assert.equal(inputs.asked[0].requester.serverId, 'api');
    assert.equal(inputs.asked[0].requester.interactive, true);
    assert.equal(inputs.asked[0].requester.definitionOf('token'), definition);
    assert.equal(inputs.stored.get('token'), CANARY);

    await assert.rejects(connector.prepare({ server: makeServer('other', { needsInput: ['key'] }), automatic: true, signal: new AbortController().signal }),
      /input key was not provided/);
    assert.equal(inputs.asked[1].requester.interactive, false);
  });

  it('keeps answers per configuration file: a project server\'s ${input:token} never gets the user file\'s answer', async () => {
    const inputs = new FakeInputs({ token: CANARY });
    const inner = new FakeConnector();
    const launched: string[][] = [];
    inner.fallback = async (req) => { launched.push(req.server.launch.args); return new FakeConnection(req); };
    const connector = resolving({ inner, inputs, definitionOf: () => undefined });
    await connector.prepare({ server, automatic: false, signal: new AbortController().signal });
    await connector.connect(request());
    assert.deepEqual(launched[0], ['server.js', `--token=${CANARY}`]);

    const project = makeServer('api', { scope: 'project', folder: '/repo', needsInput: ['token'], source: { ...server.source, file: '/repo/.mcp.json' } }, server.launch);
    await assert.rejects(connector.connect(request({ server: project })), /input token was not provided/, 'no value of its own yet');
    await assert.rejects(connector.prepare({ server: project, automatic: true, signal: new AbortController().signal }), /not provided/, 'and it is asked for, not borrowed');
    assert.deepEqual(inputs.asked.at(-1)?.requester.owner, { scope: 'project', file: '/repo/.mcp.json' });
    assert.equal(launched.length, 1, 'the project server was never launched with the user\'s answer');
  });

  it('keys answers by file, keeping the user scope\'s key as it was', () => {
    const user: InputOwner = { scope: 'user', file: '/config/.mcp.json' };
    const project: InputOwner = { scope: 'project', file: '/repo/.mcp.json' };
    assert.equal(inputKeyOf('ws1', user, 'token'), 'switchboard.input:ws1:"token"', 'answers kept before still fill the user\'s servers');
    const keys = new Set([inputKeyOf('ws1', user, 'token'), inputKeyOf('ws1', project, 'token'), inputKeyOf('ws1', { ...project, file: '/other/.mcp.json' }, 'token'), inputKeyOf('ws1', { scope: 'local', file: '/repo/.mcp.json' }, 'token')]);
    assert.equal(keys.size, 4);
    assert.notEqual(inputKeyOf('ws1', project, 'a"]'), inputKeyOf('ws1', { ...project, file: '/repo/.mcp.json", "a' }, ''));
    assert.deepEqual(parseInputIndex(JSON.stringify(['token', { id: 'key', key: inputKeyOf('ws1', project, 'key') }, 7]), 'ws1'), [
      { id: 'token', key: 'switchboard.input:ws1:"token"' },
      { id: 'key', key: inputKeyOf('ws1', project, 'key') },
    ]);
    assert.equal(inputIndexKeyOf('ws1'), 'switchboard.inputs:ws1');
  });

  it('asks nothing for a server without inputs', async () => {
    const inputs = new FakeInputs();
    const connector = new InputResolvingConnector({ inner: new FakeConnector(), inputs, definitionOf: () => undefined });
    await connector.prepare({ server: makeServer('plain'), automatic: false, signal: new AbortController().signal });
    assert.equal(inputs.asked.length, 0);
  });

  it('hands the inner connector the values, and scrubs them from the log, errors, close reasons and the catalog', async () => {
    const inputs = new FakeInputs({ token: CANARY });
    await inputs.ensure(['token'], { serverId: 'api', owner: inputOwnerOf(server), interactive: true, definitionOf: () => undefined });
    const inner = new FakeConnector();
    let fake!: FakeConnection;
    inner.fallback = async (req) => {
      req.log.stderr(`token is ${CANARY}`);
      req.log.info(`spawned node server.js --token=${CANARY}`);
      req.log.serverMessage('info', `logger-${CANARY}`, { nested: [`value ${CANARY}`], [CANARY]: 1 });
      req.log.trace('receive', { result: { text: JSON.stringify({ token: CANARY }) } });
      const connection = new FakeConnection(req);
      connection.serverInfo = { name: `fake ${CANARY}`, version: '1' };
      connection.setPages('tools', [[{ name: 'echo', description: `uses ${encodeURIComponent(CANARY)}`, inputSchema: {} }]]);
      fake = connection;
      return connection;
    };
    const log = new RecordingLog();
    const connector = resolving({ inner, inputs, definitionOf: () => undefined });
    const connection: ServerConnection = await connector.connect(request({ log }));

    const launched = inner.requests[0].server;
    assert.deepEqual(launched.launch.args, ['server.js', `--token=${CANARY}`]);
    assert.equal(launched.launch.env.API_TOKEN, CANARY);
    assert.equal(launched.fingerprint, server.fingerprint, 'the fingerprint is that of the definition as written');
    assert.equal(server.launch.env.API_TOKEN, '${input:token}', 'the registry\'s server is unchanged');

    const page = await connection.listPage('tools', undefined, { timeoutMs: 100 });
    assert.equal(page.items[0].description, 'uses ***');
    assert.equal(connection.serverInfo.name, 'fake ***');

    fake.answer = () => Promise.reject(new Error(`server said ${CANARY}`));
    await assert.rejects(connection.callTool('echo', {}, { timeoutMs: 100 }), (error: Error) => !error.message.includes(CANARY) && error.message.includes('***'));
    const closed = deferred<string>();
    connection.onClose((info) => closed.resolve(JSON.stringify(info)));
    fake.crash({ reason: `exited after printing ${CANARY}`, stderrTail: [CANARY, 'bye'] });
    const info = await closed.promise;
    assert.ok(!info.includes(CANARY), info);
    assert.match(info, /exited after printing \*\*\*/);

    assert.ok(log.lines.length >= 4);
    assert.ok(!log.text().includes(CANARY), log.text());
    assert.ok(!log.text().includes(encodeURIComponent(CANARY)), log.text());
  });

  it('scrubs the values out of a failed connect, its stderr tail and its cause', async () => {
    const inputs = new FakeInputs();
    inputs.byKey.set(inputKeyOf('ws', inputOwnerOf(server), 'token'), CANARY);
    const inner = new FakeConnector();
    inner.fallback = async () => { throw new ConnectError(`command not found: ${CANARY}`, [`line with ${CANARY}`], { cause: new Error(CANARY) }); };
    const connector = resolving({ inner, inputs, definitionOf: () => undefined });
    const error = await connector.connect(request()).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ConnectError);
    assert.equal(error.message, 'command not found: ***');
    assert.deepEqual(error.stderrTail, ['line with ***']);
    assert.equal((error.cause as Error).message, '***');
    assert.ok(!String(error.stack).includes(CANARY));
  });

  it('fails the start with "input … was not provided" when no value is stored at connect', async () => {
    const connector = resolving({ inner: new FakeConnector(), inputs: new FakeInputs(), definitionOf: () => undefined });
    await assert.rejects(connector.connect(request()), /input token was not provided/);
  });

  it('wraps nothing itself: it reports the values to the redaction in front, and refuses to launch without one', async () => {
    const inputs = new FakeInputs();
    inputs.byKey.set(inputKeyOf('ws', inputOwnerOf(server), 'token'), CANARY);
    const inner = new FakeConnector();
    const reported: string[] = [];
    const connector = new InputResolvingConnector({ inner, inputs, definitionOf: () => undefined });
    const connection = await connector.connect(request({ addSecrets: (values) => reported.push(...values) }));
    assert.deepEqual(reported, [CANARY]);
    assert.equal(connection, inner.last('api'), 'the inner connection, not a second redacting wrapper');
    await assert.rejects(connector.connect(request()), /needs a RedactingConnector in front of it/);
    assert.equal(inner.requests.length, 1, 'nothing was launched without the redaction');
  });

  it('passes a server without inputs through untouched', async () => {
    const inner = new FakeConnector();
    const connector = new InputResolvingConnector({ inner, inputs: new FakeInputs(), definitionOf: () => undefined });
    const req = request({ server: makeServer('plain') });
    const connection = await connector.connect(req);
    assert.equal(inner.requests[0], req);
    assert.equal(connection, inner.last('plain'));
  });
});

describe('redacting wrappers', () => {
  it('secretForms lists raw, percent-encoded and JSON-escaped forms, longest first, skipping short and boolean-like values', () => {
    assert.deepEqual(secretForms(['a b"c', 'no', 'true', 'abc']), ['a%20b%22c', 'a b\\"c', 'a b"c']);
  });

  it('redactValue copies JSON-like values with every string and key scrubbed, cycles included', () => {
    const value: Record<string, unknown> = { [CANARY]: [CANARY, 1, null, { deep: `x${CANARY}x` }] };
    value.self = value;
    const copy = redactValue(value, [CANARY]);
    assert.deepEqual(Object.keys(copy), ['***', 'self']);
    assert.deepEqual(copy['***'], ['***', 1, null, { deep: 'x***x' }]);
    assert.equal(copy.self, copy);
    assert.equal(Object.keys(value)[0], CANARY, 'the original is unchanged');
  });

  it('redactError keeps the error class and scrubs string fields', () => {
    class CodedError extends Error { code = 7; detail = `d ${CANARY}`; }
    const error = redactError(new CodedError(`m ${CANARY}`), [CANARY]) as CodedError;
    assert.ok(error instanceof CodedError);
    assert.equal(error.message, 'm ***');
    assert.equal(error.detail, 'd ***');
    assert.equal(error.code, 7);
    assert.equal(redactError(`plain ${CANARY}`, [CANARY]), 'plain ***');
  });

  it('redactingLog scrubs every kind of line', () => {
    const log = new RecordingLog();
    const wrapped = redactingLog(log, [CANARY]);
    wrapped.info(CANARY); wrapped.warn(CANARY); wrapped.error(CANARY); wrapped.stderr(CANARY);
    wrapped.serverMessage('debug', CANARY, CANARY); wrapped.trace('send', { params: { arguments: { t: CANARY } } });
    assert.equal(log.lines.length, 6);
    assert.ok(!log.text().includes(CANARY), log.text());
  });
});

describe('ServerController with a connector that prepares', () => {
  function setup(prepare: (req: { automatic: boolean; signal: AbortSignal }) => Promise<void>) {
    const clock = new FakeClock();
    const inner = new FakeConnector();
    const connector = Object.assign(inner, { prepare });
    const log = new RecordingLog();
    const controller = new ServerController({
      server: makeServer('s'), connector, log, clock, settings: () => ({ ...DEFAULT_LIFECYCLE_SETTINGS, startupTimeoutMs: 1000 }), roots: () => [],
    });
    return { clock, connector: inner, log, controller };
  }

  it('waits for prepare outside the startup timeout, then connects', async () => {
    const answered = deferred<void>();
    const { clock, connector, controller } = setup(() => answered.promise);
    const started = controller.start();
    await flush();
    assert.equal(controller.state.kind, 'starting');
    await clock.tick(60_000);
    assert.equal(controller.state.kind, 'starting', 'a person taking a minute to answer is no startup timeout');
    assert.equal(connector.count('s'), 0, 'nothing is launched before the values are known');
    answered.resolve();
    await started;
    assert.equal(controller.state.kind, 'ready');
    controller.dispose();
  });

  it('fails the start with the message of a failed prepare, without connecting', async () => {
    const { connector, controller } = setup(() => Promise.reject(new Error('input token was not provided')));
    await controller.start();
    assert.deepEqual(controller.state, { kind: 'failed', error: 'input token was not provided', stderrTail: [] });
    assert.equal(connector.count('s'), 0);
    controller.dispose();
  });

  it('aborts prepare when the start is cancelled by a stop', async () => {
    let signal: AbortSignal | undefined;
    const { connector, controller } = setup((req) => { signal = req.signal; return new Promise(() => undefined); });
    void controller.start();
    await flush();
    await controller.stop();
    assert.equal(signal?.aborted, true);
    assert.equal(controller.state.kind, 'stopped');
    assert.equal(connector.count('s'), 0);
    controller.dispose();
  });

  it('tells prepare when a start is an automatic restart', async () => {
    const seen: boolean[] = [];
    const { clock, connector, controller } = setup(async (req) => { seen.push(req.automatic); });
    await controller.start();
    connector.last('s').crash();
    await flush();
    await clock.tick(DEFAULT_LIFECYCLE_SETTINGS.restartBaseMs);
    await flush();
    assert.deepEqual(seen, [false, true]);
    controller.dispose();
  });
});
