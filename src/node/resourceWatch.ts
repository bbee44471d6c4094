// The old generation's resource watching over the SDK Client: `resources/subscribe` and
// `resources/unsubscribe` per URI, `notifications/resources/updated` back. A subscription belongs to a
// session, so the URIs being watched are remembered and subscribed again on a session that replaced an
// expired one (the core never sees that replacement).
import { Emitter } from '../core/event';
import type { RequestOptions, ResourceWatch, ServerLog } from '../core/lifecycle/ports';
import type { Client, SdkRequestOptions } from './sdk';

/** Runs one request on the connection's current session (SdkServerConnection's request). */
export type SessionRequest = <T>(options: RequestOptions, run: (client: Client, sdk: SdkRequestOptions) => Promise<T>) => Promise<T>;

export class SdkResourceWatch implements ResourceWatch {
  private readonly updatedEmitter = new Emitter<string>();
  readonly onUpdated = this.updatedEmitter.event;
  /** The URIs the server accepted a subscription for, in the current session. */
  private readonly watched = new Set<string>();

  constructor(private readonly request: SessionRequest, private readonly log: ServerLog) {}

  async watch(uri: string, options: RequestOptions): Promise<void> {
    await this.request(options, (client, sdk) => client.subscribeResource({ uri }, sdk));
    this.watched.add(uri);
  }

  async unwatch(uri: string, options: RequestOptions): Promise<void> {
    this.watched.delete(uri);
    await this.request(options, (client, sdk) => client.unsubscribeResource({ uri }, sdk));
  }

  /** A `notifications/resources/updated` arrived. Only watched URIs are passed on: a server may say more. */
  updated(uri: string): void {
    if (this.watched.has(uri)) this.updatedEmitter.fire(uri);
  }

  /** Subscribes the watched URIs again on a fresh session; one that fails is logged and forgotten. */
  async renew(options: RequestOptions): Promise<void> {
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
    this.updatedEmitter.dispose();
  }
}
