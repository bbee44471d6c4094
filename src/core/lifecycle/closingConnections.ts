// The connections of one server whose staged close (stdin closed, then SIGTERM, then SIGKILL) is
// still under way: what a Stop waits for, and what a second Stop closes again — which ends the
// process at once instead of waiting out the grace period.
import { errorMessage } from './errors';
import type { ServerConnection } from './ports';
import { closeQuietly } from './startAttempt';

/** Staged closes under way, each with its connection. */
export class ClosingConnections {
  private readonly closing = new Map<Promise<void>, ServerConnection>();

  constructor(private readonly warn: (message: string) => void) {}

  /** Starts the staged close of `connection` and keeps it until it is done. */
  add(connection: ServerConnection): void {
    const closing = closeQuietly(connection, (error) => this.warn(`stopping did not finish cleanly: ${errorMessage(error)}`));
    this.closing.set(closing, connection);
    void closing.then(() => this.closing.delete(closing));
  }

  /** Closes every connection still closing again: a second close kills its process now. */
  forceAll(): void {
    for (const connection of this.closing.values()) {
      connection.close().catch((error: unknown) => this.warn(`could not end the process at once: ${errorMessage(error)}`));
    }
  }

  /** Resolves once every close under way is done; undefined when none is. */
  allClosed(): Promise<void> | undefined {
    return this.closing.size > 0 ? Promise.all([...this.closing.keys()]).then(() => undefined) : undefined;
  }
}
