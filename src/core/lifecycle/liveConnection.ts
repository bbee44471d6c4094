// The live connection of a server and what hangs off it (see LiveConnection).
import { DisposableStore, type Disposable } from '../disposable';
import { CatalogLoader, type CatalogLoaderOptions } from './catalog';
import { ConnectionClosedError } from './errors';
import type { RequestOptions, ServerConnection } from './ports';
import type { CallToolResult } from './types';

/**
 * A live connection with what hangs off it: listeners, the catalog, and the requests waiting on it. It
 * is the one owner of failing those requests when the connection ends: adapters below it (transport,
 * SDK connection) only refuse new requests, so each waiting caller hears exactly one reason, ours.
 */
export class LiveConnection implements Disposable {
  readonly subscriptions = new DisposableStore();
  private readonly waiting = new Set<(error: Error) => void>();
  private endedWith: ConnectionClosedError | undefined;

  constructor(readonly serverId: string, readonly connection: ServerConnection, readonly catalog: CatalogLoader) {}

  /** A live connection with a catalog of its own, which refreshes a kind whenever the server says that list changed. */
  static open(serverId: string, connection: ServerConnection, catalog: CatalogLoaderOptions): LiveConnection {
    const live = new LiveConnection(serverId, connection, new CatalogLoader(connection, catalog));
    live.subscriptions.add(connection.onListChanged((kind) => live.catalog.refresh(kind)));
    return live;
  }

  /**
   * `request`, or a ConnectionClosedError as soon as the connection ends, whichever comes first.
   * `onFailed` hears the request's own failure before the caller does (not the connection's end), with
   * this connection: one handler for every request, rather than a second promise chained to each result.
   */
  guard<T>(request: Promise<T>, onFailed?: (error: unknown, live: LiveConnection) => void): Promise<T> {
    if (this.endedWith) {
      request.catch(() => undefined);
      return Promise.reject(this.endedWith);
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.add(reject);
      request.then(
        (value) => { this.waiting.delete(reject); resolve(value); },
        (error: unknown) => {
          this.waiting.delete(reject);
          try {
            onFailed?.(error, this);
          } finally {
            reject(error);
          }
        },
      );
    });
  }

  /** guard() of what `send` answers on the connection; a send that throws rejects instead. */
  send<T>(send: (connection: ServerConnection) => Promise<T>, onFailed?: (error: unknown, live: LiveConnection) => void): Promise<T> {
    let sent: Promise<T>;
    try {
      sent = send(this.connection);
    } catch (error) {
      sent = Promise.reject(error);
    }
    return this.guard(sent, onFailed);
  }

  /** send() of tools/call, which every tool call takes: without a closure of its own per call. */
  callTool(name: string, args: Record<string, unknown>, options: RequestOptions, onFailed?: (error: unknown, live: LiveConnection) => void): Promise<CallToolResult> {
    let sent: Promise<CallToolResult>;
    try {
      sent = this.connection.callTool(name, args, options);
    } catch (error) {
      sent = Promise.reject(error);
    }
    return this.guard(sent, onFailed);
  }

  /**
   * Fails waiting requests with a ConnectionClosedError (`reason`, and the stderr tail of a server that
   * went away by itself) and drops listeners and the catalog; the connection itself stays open (for a
   * staged close). Only the first call counts.
   */
  end(reason: string, stderrTail: readonly string[] = []): void {
    if (this.endedWith) return;
    const error = new ConnectionClosedError(this.serverId, reason, stderrTail);
    this.endedWith = error;
    for (const reject of this.waiting) reject(error);
    this.waiting.clear();
    this.subscriptions.dispose();
    this.catalog.dispose();
  }

  dispose(): void {
    this.end('the connection was disposed');
    this.connection.dispose();
  }
}
