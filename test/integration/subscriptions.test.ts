// Resource subscriptions with updates, against real servers: the SDK fixture `subscribable.mjs`
// (resources.subscribe; reading fixture://bump changes the others and notifies) and
// `listchanged.mjs` (resources, no subscribe). First the connection's watch port alone, then the
// core's bookkeeping over a ServerRegistry and the real connector, wired as the extension wires it:
// one subscribe however many watch, unsubscribed on the last release, re-subscribed after a restart,
// nothing sent to a server without the capability, a refused subscribe logged and the resource still
// readable.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fingerprint, type EffectiveServer } from '../../src/core/config';
import { ServerRegistry, type McpLogLevel, type ServerLog } from '../../src/core/lifecycle';
import type { RequestOptions } from '../../src/core/lifecycle/ports';
import { watchRegistry, type ResourceWatches } from '../../src/core/subscriptions';
import { NodeServerConnector } from '../../src/node/connector';
import { FIXTURE_SERVERS } from './helperServers';
import { REPO_ROOT, waitFor } from './support';

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const OPTS: RequestOptions = { timeoutMs: 10_000 };
const COUNTER = 'fixture://counter';

class RecordingLog implements ServerLog {
  readonly lines: string[] = [];
  readonly sent: string[] = [];
  info(text: string): void { this.lines.push(`info: ${text}`); }
  warn(text: string): void { this.lines.push(`warn: ${text}`); }
  error(text: string): void { this.lines.push(`error: ${text}`); }
  stderr(text: string): void { this.lines.push(`stderr: ${text}`); }
  serverMessage(level: McpLogLevel, _logger: string | undefined, data: unknown): void { this.lines.push(`server ${level}: ${JSON.stringify(data)}`); }
  trace(direction: 'send' | 'receive', message: unknown): void {
    const method = (message as { method?: unknown }).method;
    if (direction === 'send' && typeof method === 'string') this.sent.push(method);
  }
  count(line: string): number { return this.lines.filter((l) => l === line).length; }
  dump(): string { return this.lines.join('\n'); }
}

function fixture(id: string, file: string): EffectiveServer {
  const launch = { type: 'stdio' as const, command: process.execPath, args: [path.join(FIXTURE_SERVERS, file)], env: {}, headers: {}, cwd: REPO_ROOT };
  return {
    name: id, id, scope: 'user', timeout: 20_000, launch, disabled: false, alwaysLoad: false, needsInput: [],
    source: { file: 'subscriptions.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
    fingerprint: fingerprint(launch), needsTrust: false,
  };
}

describe('resource subscriptions with updates', function () {
  this.timeout(60_000);
  const connector = new NodeServerConnector({ clientVersion: VERSION });
  after(() => connector.dispose());

  describe('the connection\'s watch port', () => {
    it('subscribes, hears notifications/resources/updated for what it watches, and unsubscribes', async () => {
      const log = new RecordingLog();
      const connection = await connector.connect({
        server: fixture('subs', 'subscribable.mjs'), log, roots: () => [], startupTimeoutMs: 20_000, shutdownGraceMs: 200, trace: false,
        signal: new AbortController().signal,
      });
      try {
        const watch = connection.resourceWatch;
        assert.ok(watch, 'the server declares resources.subscribe');
        const heard: string[] = [];
        watch.onUpdated((uri) => heard.push(uri));
        await watch.watch(COUNTER, OPTS);
        const subscriptions = async () => String((await connection.callTool('subscriptions', {}, OPTS)).content[0]?.text ?? '');
        assert.equal(await subscriptions(), COUNTER);
        await connection.callTool('bump', {}, OPTS);
        await waitFor('the update of the counter', () => heard.length === 1);
        assert.deepEqual(heard, [COUNTER]);
        await watch.unwatch(COUNTER, OPTS);
        assert.equal(await subscriptions(), '');
        await connection.callTool('bump', {}, OPTS);
        await connection.readResource(COUNTER, OPTS); // one round trip: an update would have arrived before its answer
        assert.deepEqual(heard, [COUNTER]);
      } finally {
        await connection.close();
      }
    });

    it('offers no watch port for a server without resources.subscribe', async () => {
      const connection = await connector.connect({
        server: fixture('plain', 'listchanged.mjs'), log: new RecordingLog(), roots: () => [], startupTimeoutMs: 20_000, shutdownGraceMs: 200, trace: false,
        signal: new AbortController().signal,
      });
      try {
        assert.equal(connection.resourceWatch, undefined);
      } finally {
        await connection.close();
      }
    });
  });

  describe('the bookkeeping over a registry', () => {
    let registry: ServerRegistry;
    let watches: ResourceWatches;
    const logs = new Map<string, RecordingLog>();
    const log = (id: string): RecordingLog => logs.get(id) ?? assert.fail(`no log for ${id}`);

    beforeEach(async () => {
      logs.clear();
      registry = new ServerRegistry({
        connector,
        settings: { shutdownGraceMs: 200, requestTimeoutMs: 10_000, trace: true },
        logFor: (server) => {
          const recording = new RecordingLog();
          logs.set(server.id, recording);
          return recording;
        },
      });
      watches = watchRegistry(registry);
      registry.reconcile([fixture('subs', 'subscribable.mjs'), fixture('plain', 'listchanged.mjs')]);
      const summary = await registry.settled();
      assert.deepEqual([...summary.ready].sort(), ['plain', 'subs'], JSON.stringify(summary));
    });

    afterEach(async () => {
      watches.dispose();
      await registry.stopAll();
      registry.dispose();
    });

    it('subscribes once for two watchers, passes updates on, re-subscribes after a restart, and unsubscribes on the last release', async () => {
      const heard: string[] = [];
      watches.onDidUpdate(({ server, uri }) => heard.push(`${server} ${uri}`));
      const document = watches.watch('subs', COUNTER, 'document');
      const chat = watches.watch('subs', COUNTER, 'chat');
      await waitFor('the subscription', () => watches.status('subs', COUNTER) === 'subscribed', 10_000);
      assert.equal(log('subs').count(`stderr: subscribed ${COUNTER}`), 1, log('subs').dump());

      await registry.readResource('subs', 'fixture://bump');
      await waitFor('the update', () => heard.length === 1, 10_000);
      assert.deepEqual(heard, [`subs ${COUNTER}`]);
      assert.equal(watches.updates('subs', COUNTER), 1);

      await registry.restart('subs');
      await waitFor('the subscription on the new process', () => log('subs').count(`stderr: subscribed ${COUNTER}`) === 2, 10_000);
      await waitFor('the status', () => watches.status('subs', COUNTER) === 'subscribed', 10_000);
      await registry.readResource('subs', 'fixture://bump');
      await waitFor('the update from the new process', () => heard.length === 2, 10_000);

      document.dispose();
      await registry.readResource('subs', COUNTER);
      assert.equal(log('subs').count(`stderr: unsubscribed ${COUNTER}`), 0, 'the chat still watches');
      chat.dispose();
      await waitFor('the unsubscribe', () => log('subs').count(`stderr: unsubscribed ${COUNTER}`) === 1, 10_000);
      assert.deepEqual(watches.list(), []);
    });

    it('drops the subscription when the server stops, sends nothing meanwhile, and subscribes again when it starts', async () => {
      const watch = watches.watch('subs', COUNTER, 'document');
      await waitFor('the subscription', () => watches.status('subs', COUNTER) === 'subscribed', 10_000);
      await registry.stop('subs');
      assert.equal(watches.status('subs', COUNTER), 'idle');
      await registry.start('subs');
      await waitFor('the subscription after the start', () => watches.status('subs', COUNTER) === 'subscribed', 10_000);
      // The log is the server's, across its processes: one subscribe each.
      assert.equal(log('subs').count(`stderr: subscribed ${COUNTER}`), 2, log('subs').dump());
      watch.dispose();
    });

    it('sends nothing to a server that does not declare resources.subscribe, and reports no error', async () => {
      const watch = watches.watch('plain', 'fixture://anything', 'document');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(watches.status('plain', 'fixture://anything'), 'idle');
      watch.dispose();
      assert.ok(log('plain').sent.includes('tools/list'), `the trace records what is sent: ${log('plain').sent.join(', ')}`);
      assert.ok(!log('plain').sent.some((method) => method.startsWith('resources/subscribe') || method.startsWith('resources/unsubscribe')), log('plain').sent.join('\n'));
      assert.ok(!log('plain').lines.some((line) => line.startsWith('warn') || line.startsWith('error')), log('plain').dump());
    });

    it('logs a refused subscribe in the server\'s log and keeps the resource readable', async () => {
      const watch = watches.watch('subs', 'fixture://refused', 'document');
      await waitFor('the refusal', () => watches.status('subs', 'fixture://refused') === 'failed', 10_000);
      assert.ok(log('subs').lines.some((line) => /^warn: could not subscribe to fixture:\/\/refused: .*refused/.test(line)), log('subs').dump());
      const read = await registry.readResource('subs', 'fixture://refused');
      assert.equal(read.contents[0]?.text, 'readable, not watchable');
      watch.dispose();
    });
  });
});
