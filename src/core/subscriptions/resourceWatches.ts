// Who watches which resource, and what the servers were asked. Watchers (an open resource document, a
// chat attachment) come and go; a server hears one subscribe per resource, however many watch it, and
// one unsubscribe when the last watcher leaves. A server that stops takes its subscriptions with it;
// when it is ready again, what is still watched is subscribed again. A server that offers no
// subscriptions is never asked, and a refused subscribe leaves the resource readable, only unwatched.
import type { Disposable } from '../disposable';
import { Emitter, type Event } from '../event';

/** What the bookkeeping needs of the servers (the registry, in the extension). */
export interface WatchPort {
  /** Whether `server` is ready and offers resource subscriptions now. */
  canWatch(server: string): boolean;
  /** Starts (`on`) or stops watching `uri` on the server's current connection. */
  set(server: string, uri: string, on: boolean): Promise<void>;
}

/**
 * Where one watched resource stands with its server: `idle` (not asked: the server is not ready or
 * offers no subscriptions), `subscribing`, `subscribed`, or `failed` (the server refused; not asked
 * again before it restarts).
 */
export type WatchStatus = 'idle' | 'subscribing' | 'subscribed' | 'failed';

/** A watched resource that changed. */
export interface WatchedUpdate {
  readonly server: string;
  readonly uri: string;
}

/** One watched resource, as tests and the log see it. */
export interface WatchInfo {
  readonly server: string;
  readonly uri: string;
  readonly watchers: readonly string[];
  readonly status: WatchStatus;
  readonly updates: number;
}

interface Entry {
  readonly server: string;
  readonly uri: string;
  /** Watcher → how many times it watches (a watcher may watch twice and must release twice). */
  readonly watchers: Map<string, number>;
  status: WatchStatus;
  /** Updates heard since the resource was first watched. */
  updates: number;
}

/** The bookkeeping of resource subscriptions across servers (see the file comment). */
export class ResourceWatches implements Disposable {
  private readonly entries = new Map<string, Entry>();
  /** Bumped when a server's connection goes: answers from the previous connection are dropped. */
  private readonly epochs = new Map<string, number>();
  private readonly updatedEmitter = new Emitter<WatchedUpdate>();
  /** A watched resource changed. */
  readonly onDidUpdate: Event<WatchedUpdate> = this.updatedEmitter.event;
  private disposed = false;
  private readonly owned: Disposable[] = [];

  constructor(private readonly port: WatchPort) {}

  /** `watcher` watches `uri` of `server` until the returned disposable is disposed. */
  watch(server: string, uri: string, watcher: string): Disposable {
    const key = keyOf(server, uri);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { server, uri, watchers: new Map(), status: 'idle', updates: 0 };
      this.entries.set(key, entry);
    }
    entry.watchers.set(watcher, (entry.watchers.get(watcher) ?? 0) + 1);
    this.subscribe(entry);
    let released = false;
    return {
      dispose: () => {
        if (released) return;
        released = true;
        this.release(key, watcher);
      },
    };
  }

  /** The server is ready (started or restarted): what is watched of it is subscribed. */
  serverReady(server: string): void {
    for (const entry of this.entries.values()) if (entry.server === server) this.subscribe(entry);
  }

  /** The server's connection is gone (stopped, crashed, restarting): its subscriptions went with it. */
  serverGone(server: string): void {
    this.epochs.set(server, this.epochOf(server) + 1);
    for (const [key, entry] of this.entries) {
      if (entry.server !== server) continue;
      if (entry.watchers.size === 0) this.entries.delete(key);
      else entry.status = 'idle';
    }
  }

  /** The server says `uri` changed; heard only for a watched resource. */
  updated(server: string, uri: string): void {
    const entry = this.entries.get(keyOf(server, uri));
    if (!entry || entry.watchers.size === 0 || this.disposed) return;
    entry.updates++;
    this.updatedEmitter.fire({ server, uri });
  }

  /** How many updates of a watched resource were heard (0 when it is not watched). */
  updates(server: string, uri: string): number {
    return this.entries.get(keyOf(server, uri))?.updates ?? 0;
  }

  /** Where a resource stands, or undefined when nobody watches it. */
  status(server: string, uri: string): WatchStatus | undefined {
    const entry = this.entries.get(keyOf(server, uri));
    return entry && entry.watchers.size > 0 ? entry.status : undefined;
  }

  /** Every watched resource. */
  list(): WatchInfo[] {
    return [...this.entries.values()].filter((entry) => entry.watchers.size > 0).map((entry) => ({
      server: entry.server, uri: entry.uri, watchers: [...entry.watchers.keys()], status: entry.status, updates: entry.updates,
    }));
  }

  /** Disposes `disposable` with this (the listeners that feed it). */
  own(disposable: Disposable): void {
    this.owned.push(disposable);
  }

  /** Forgets everything without asking the servers (they are stopping with the extension). */
  dispose(): void {
    this.disposed = true;
    for (const disposable of this.owned.splice(0)) disposable.dispose();
    this.entries.clear();
    this.updatedEmitter.dispose();
  }

  private subscribe(entry: Entry): void {
    if (entry.status !== 'idle' || this.disposed || !this.port.canWatch(entry.server)) return;
    const epoch = this.epochOf(entry.server);
    const key = keyOf(entry.server, entry.uri);
    entry.status = 'subscribing';
    this.port.set(entry.server, entry.uri, true).then(
      () => {
        if (this.epochOf(entry.server) !== epoch || this.disposed) return;
        entry.status = 'subscribed';
        // Everyone left while the server answered: the subscription it just made is not wanted.
        if (entry.watchers.size === 0) this.drop(key, entry);
      },
      () => {
        if (this.epochOf(entry.server) !== epoch || this.disposed) return;
        // The port logged why in the server's log; the resource stays readable, just not watched.
        entry.status = 'failed';
        if (entry.watchers.size === 0) this.drop(key, entry);
      },
    );
  }

  private release(key: string, watcher: string): void {
    const entry = this.entries.get(key);
    if (!entry || this.disposed) return;
    const count = (entry.watchers.get(watcher) ?? 0) - 1;
    if (count > 0) {
      entry.watchers.set(watcher, count);
      return;
    }
    entry.watchers.delete(watcher);
    // A subscribe in flight keeps the entry until it is answered (see subscribe), so that a watcher
    // coming back meanwhile joins it rather than racing a second subscribe against the unsubscribe.
    if (entry.watchers.size === 0 && entry.status !== 'subscribing') this.drop(key, entry);
  }

  /** Forgets an entry nobody watches, unsubscribing it if the server has it. */
  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    // A server that went meanwhile dropped the subscription itself; a failure is in the server's log.
    if (entry.status === 'subscribed' && this.port.canWatch(entry.server)) this.port.set(entry.server, entry.uri, false).catch(() => undefined);
  }

  private epochOf(server: string): number {
    return this.epochs.get(server) ?? 0;
  }
}

function keyOf(server: string, uri: string): string {
  return `${server}\n${uri}`;
}
