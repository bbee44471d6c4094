// How many sampling requests a server may make: at most `limit` in any `windowMs`, counted per server.
// A server that asks more often is refused (without a card) until its oldest request is older than the window
import type { Clock } from '../lifecycle/clock';

export const DEFAULT_SAMPLING_LIMIT = { limit: 10, windowMs: 60_000 } as const;

export class SamplingRateLimit {
  private readonly times = new Map<string, number[]>();

  constructor(private readonly clock: Clock, private readonly limit: number = DEFAULT_SAMPLING_LIMIT.limit, private readonly windowMs: number = DEFAULT_SAMPLING_LIMIT.windowMs) {}

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
