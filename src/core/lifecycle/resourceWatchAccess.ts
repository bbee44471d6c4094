// One server's resource watching as its controller offers it: on the ready connection, a failure logged
// in the server's log, and the connection's updates relayed for as long as that connection lives.
import type { Disposable } from '../disposable';
import { Emitter, type Event } from '../event';
import { errorMessage } from './errors';
import type { LiveConnection } from './liveConnection';
import type { RequestOptions } from './ports';

/** A watched resource of one server changed. */
export interface ResourceUpdate {
  readonly id: string;
  readonly uri: string;
}

export class ResourceWatchAccess implements Disposable {
  private readonly updatedEmitter = new Emitter<ResourceUpdate>();
  /** A watched resource changed. */
  readonly onDidUpdate: Event<ResourceUpdate> = this.updatedEmitter.event;

  constructor(
    private readonly id: () => string,
    /** The live connection while the server is ready. */
    private readonly ready: () => LiveConnection | undefined,
    private readonly options: () => RequestOptions,
    /** Writes to the server's log. */
    private readonly warn: (message: string) => void,
  ) {}

  /** Whether the server is ready and offers watching (a server that does not is never asked). */
  get supported(): boolean {
    return this.ready()?.connection.resourceWatch !== undefined;
  }

  /** Starts (`on`) or stops watching `uri`; a failure is logged in the server's log and rejects. */
  async set(uri: string, on: boolean): Promise<void> {
    const live = this.ready();
    if (!live) throw new Error(`${this.id()} is not ready`);
    const watch = live.connection.resourceWatch;
    if (!watch) throw new Error(`${this.id()} does not offer resource subscriptions`);
    try {
      // Guarded: the connection's end fails the request at once, with the reason it ended.
      await live.guard(on ? watch.watch(uri, this.options()) : watch.unwatch(uri, this.options()));
    } catch (error) {
      this.warn(`could not ${on ? 'subscribe to' : 'unsubscribe from'} ${uri}: ${errorMessage(error)}`);
      throw error;
    }
  }

  /** Relays the updates of a new live connection until it ends. */
  follow(live: LiveConnection): void {
    const watch = live.connection.resourceWatch;
    if (watch) live.subscriptions.add(watch.onUpdated((uri) => this.updatedEmitter.fire({ id: this.id(), uri })));
  }

  dispose(): void {
    this.updatedEmitter.dispose();
  }
}
