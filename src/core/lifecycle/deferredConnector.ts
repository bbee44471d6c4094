// A ServerConnector whose real connector is built on the first connect: the transports, the SDK client
// and OAuth are only loaded when a server starts, not when the host (an editor window) starts.
import type { ConnectRequest, PrepareRequest, ServerConnection, ServerConnector } from './ports';

/** The connector the deferred one hands every call to, once built. */
export interface DisposableConnector extends ServerConnector {
  dispose(): Promise<void>;
}

export class DeferredConnector implements DisposableConnector {
  private building: Promise<DisposableConnector> | undefined;

  constructor(private readonly build: () => Promise<DisposableConnector>) {}

  /** The real connector, built on the first call and shared by every later one. */
  connector(): Promise<DisposableConnector> {
    this.building ??= this.build().catch((error: unknown) => {
      this.building = undefined; // a later start may try again
      throw error;
    });
    return this.building;
  }

  async prepare(request: PrepareRequest): Promise<void> {
    const inner = await this.connector();
    await inner.prepare?.(request);
  }

  async connect(request: ConnectRequest): Promise<ServerConnection> {
    return (await this.connector()).connect(request);
  }

  /** Disposes the real connector if it was ever built; nothing to do otherwise. */
  async dispose(): Promise<void> {
    const building = this.building;
    if (!building) return;
    await (await building.catch(() => undefined))?.dispose();
  }
}
