// The live connection of a server and what hangs off it (see LiveConnection).
import { DisposableStore, type Disposable } from '../disposable';
import type { CatalogLoader } from './catalog';
import type { ServerConnection } from './ports';

/** A live connection with what hangs off it: listeners, the catalog, and the requests waiting on it. */
export class LiveConnection implements Disposable {
  readonly subscriptions = new DisposableStore();
  private readonly waiting = new Set<(error: Error) => void>();
  private endedWith: Error | undefined;

  constructor(readonly connection: ServerConnection, readonly catalog: CatalogLoader) {}

  /** `request`, or a rejection as soon as the connection ends, whichever comes first. */
  guard<T>(request: Promise<T>): Promise<T> {
    if (this.endedWith) return Promise.reject(this.endedWith);
    return new Promise<T>((resolve, reject) => {
      this.waiting.add(reject);
      request.then(
        (value) => { this.waiting.delete(reject); resolve(value); },
        (error: unknown) => { this.waiting.delete(reject); reject(error); },
      );
    });
  }

  /** Fails waiting requests and drops listeners and the catalog; the connection itself stays open (for a staged close). */
  detach(error: Error): void {
    if (this.endedWith) return;
    this.endedWith = error;
    for (const reject of this.waiting) reject(error);
    this.waiting.clear();
    this.subscriptions.dispose();
    this.catalog.dispose();
  }

  dispose(): void {
    this.detach(new Error('the connection was disposed'));
    this.connection.dispose();
  }
}
