// The bookkeeping wired to the servers: the registry answers whether a server can watch and sends the
// requests; its state changes tell when a server's subscriptions went and when it is ready for them
// again; its relayed `notifications/resources/updated` reach the watchers.
import type { Event } from '../event';
import { ResourceWatches } from './resourceWatches';

/** What the wiring needs of the registry (a ServerRegistry fits). */
export interface WatchableRegistry {
  canWatchResources(id: string): boolean;
  watchResource(id: string, uri: string, on: boolean): Promise<void>;
  readonly onDidChangeState: Event<{ readonly id: string; readonly state: { readonly kind: string }; readonly previous: { readonly kind: string } }>;
  readonly onDidUpdateResource: Event<{ readonly id: string; readonly uri: string }>;
}

/** ResourceWatches over `registry`; disposing it stops listening to the registry. */
export function watchRegistry(registry: WatchableRegistry): ResourceWatches {
  const watches = new ResourceWatches({
    canWatch: (server) => registry.canWatchResources(server),
    set: (server, uri, on) => registry.watchResource(server, uri, on),
  });
  watches.own(registry.onDidChangeState(({ id, state, previous }) => {
    if (state.kind === 'ready') watches.serverReady(id);
    else if (previous.kind === 'ready') watches.serverGone(id);
  }));
  watches.own(registry.onDidUpdateResource(({ id, uri }) => watches.updated(id, uri)));
  return watches;
}
