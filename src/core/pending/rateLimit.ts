// How many requests of one kind (sampling, elicitation) a server may make: at most `limit` in any
// `windowMs`, counted per server. A server that asks more often is refused (without a card) until
// its oldest request is older than the window, so a server cannot bury the person under questions.
import type { Clock } from '../lifecycle/clock';

export class PerServerRateLimit {
  private readonly times = new Map<string, number[]>();

  constructor(private readonly clock: Clock, private readonly limit: number, private readonly windowMs: number) {}

  /** Counts one request of `serverId` if it is within the limit; otherwise says how long to wait. */
  take(serverId: string): { readonly ok: true } | { readonly ok: false; readonly retryInMs: number } {
    const now = this.clock.now();
    const recent = (this.times.get(serverId) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.limit) {
      this.times.set(serverId, recent);
      return { ok: false, retryInMs: this.windowMs - (now - (recent[0] ?? now)) };
    }
    recent.push(now);
    this.times.set(serverId, recent);
    return { ok: true };
  }
}
