// Resources attached in chat are watched too, so that a later request can tell the model which of them
// changed since they were attached. Only the most recent attachments are held: a long session must not
// keep every resource it ever attached subscribed.
import type { Disposable } from '../disposable';
import type { ResourceWatches } from './resourceWatches';

/** The watcher name of chat attachments (documents watch under their own URI). */
export const CHAT_WATCHER = 'chat';

/** How many attached resources stay watched by default. */
export const DEFAULT_ATTACHMENTS_WATCHED = 32;

interface Held {
  readonly watch: Disposable;
  /** The resource's update count when it was last attached. */
  seen: number;
}

/** Which attached resources changed since they were attached (see the file comment). */
export class AttachmentChanges implements Disposable {
  /** In attachment order, oldest first (a re-attached resource moves to the end). */
  private readonly held = new Map<string, Held>();

  constructor(private readonly watches: ResourceWatches, private readonly limit = DEFAULT_ATTACHMENTS_WATCHED) {}

  /** Records that a request attaches the resource now; true when it was attached before and has changed since. */
  attach(server: string, uri: string): boolean {
    const key = `${server}\n${uri}`;
    const previous = this.held.get(key);
    const changed = previous !== undefined && this.watches.updates(server, uri) > previous.seen;
    this.held.delete(key);
    const watch = previous?.watch ?? this.watches.watch(server, uri, CHAT_WATCHER);
    this.held.set(key, { watch, seen: this.watches.updates(server, uri) });
    for (const [oldest, held] of this.held) {
      if (this.held.size <= this.limit) break;
      held.watch.dispose();
      this.held.delete(oldest);
    }
    return changed;
  }

  /** Whether a resource attached earlier has changed since (nothing is recorded). */
  changed(server: string, uri: string): boolean {
    const held = this.held.get(`${server}\n${uri}`);
    return held !== undefined && this.watches.updates(server, uri) > held.seen;
  }

  dispose(): void {
    for (const held of this.held.values()) held.watch.dispose();
    this.held.clear();
  }
}
