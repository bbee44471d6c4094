// The live connection of a server and what hangs off it (see LiveConnection).
import { DisposableStore, type Disposable } from '../disposable';
import { CatalogLoader, type CatalogLoaderOptions } from './catalog';
import { ConnectionClosedError } from './errors';
import type { ServerConnection } from './ports';

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
   * `onFailed` hears the request's own failure before the caller does (not the connection's end): one
   * handler on the path every call takes, rather than a second promise chained to the result.
   */
  guard<T>(request: Promise<T>, onFailed?: (error: unknown) => void): Promise<T> {
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
            onFailed?.(error);
          } finally {
            reject(error);
          }
        },
      );
    });
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
