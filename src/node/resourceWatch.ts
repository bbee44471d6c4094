// Resource watching over the SDK Client, for both generations. The old generation: `resources/subscribe`
// and `resources/unsubscribe` per URI, `notifications/resources/updated` back; a subscription belongs to
// a session, so the URIs being watched are remembered and subscribed again on a session that replaced an
// expired one (the core never sees that replacement). The 2026-07-28 generation has no
// `resources/subscribe`: one `subscriptions/listen` stream names every watched URI
// (`resourceSubscriptions`) and carries the same `notifications/resources/updated`; a change of the set
// opens a new stream and then closes the old one, so no update falls between them.
import { Emitter } from '../core/event';
import type { RequestOptions, ResourceWatch, ServerLog } from '../core/lifecycle/ports';
import type { Client, McpSubscription, SdkRequestOptions } from './sdk';

/** Runs one request on the connection's current session (SdkServerConnection's request). */
export type SessionRequest = <T>(options: RequestOptions, run: (client: Client, sdk: SdkRequestOptions) => Promise<T>) => Promise<T>;

export class SdkResourceWatch implements ResourceWatch {
  private readonly updatedEmitter = new Emitter<string>();
  readonly onUpdated = this.updatedEmitter.event;
  /** The URIs the server accepted a subscription for, in the current session. */
  private readonly watched = new Set<string>();

  /** 2026-07-28: the stream that carries the watched URIs' updates, and the queue that changes it one at a time. */
  private listening: McpSubscription | undefined;
  private relistening: Promise<void> = Promise.resolve();

  /** `modern` says whether the current session speaks 2026-07-28. */
  constructor(private readonly request: SessionRequest, private readonly log: ServerLog, private readonly modern: () => boolean = () => false) {}

  async watch(uri: string, options: RequestOptions): Promise<void> {
    if (this.modern()) {
      if (this.watched.has(uri)) return;
      this.watched.add(uri);
      try {
        await this.relisten(options);
      } catch (error) {
        this.watched.delete(uri);
        throw error;
      }
      return;
    }
    await this.request(options, (client, sdk) => client.subscribeResource({ uri }, sdk));
    this.watched.add(uri);
  }

  async unwatch(uri: string, options: RequestOptions): Promise<void> {
    this.watched.delete(uri);
    if (this.modern()) return this.relisten(options);
    await this.request(options, (client, sdk) => client.unsubscribeResource({ uri }, sdk));
  }

  /** Replaces the listen stream by one for the watched URIs (none: closed); changes run one after another. */
  private relisten(options: RequestOptions): Promise<void> {
    const next = this.relistening.catch(() => undefined).then(async () => {
      const previous = this.listening;
      this.listening = undefined;
      const uris = [...this.watched];
      try {
        if (uris.length > 0) {
          const subscription = await this.request(options, (client, sdk) => client.listen({ resourceSubscriptions: uris }, sdk));
          this.listening = subscription;
          const honored = new Set(subscription.honoredFilter.resourceSubscriptions ?? []);
          const refused = uris.filter((uri) => !honored.has(uri));
          for (const uri of refused) this.watched.delete(uri);
          if (refused.length > 0) throw new Error(`the server did not accept a subscription to ${refused.join(', ')}`);
        }
      } finally {
        await previous?.close();
      }
    });
    this.relistening = next;
    return next;
  }

  /** A `notifications/resources/updated` arrived. Only watched URIs are passed on: a server may say more. */
  updated(uri: string): void {
    if (this.watched.has(uri)) this.updatedEmitter.fire(uri);
  }

  /** Subscribes the watched URIs again on a fresh session; one that fails is logged and forgotten. */
  async renew(options: RequestOptions): Promise<void> {
    if (this.modern()) {
      await this.relisten(options).catch((error: unknown) => {
        this.log.warn(`could not listen for resource updates again on the new session: ${error instanceof Error ? error.message : String(error)}`);
      });
      return;
    }
    for (const uri of [...this.watched]) {
      try {
        await this.request(options, (client, sdk) => client.subscribeResource({ uri }, sdk));
      } catch (error) {
        this.watched.delete(uri);
        this.log.warn(`could not subscribe to ${uri} again on the new session: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  dispose(): void {
    this.watched.clear();
    void this.listening?.close();
    this.listening = undefined;
    this.updatedEmitter.dispose();
  }
}
