// How many sampling requests a server may make: at most `limit` in any `windowMs`, counted per server.
import type { Clock } from '../lifecycle/clock';
import { PerServerRateLimit } from '../pending/rateLimit';

export const DEFAULT_SAMPLING_LIMIT = { limit: 10, windowMs: 60_000 } as const;

export class SamplingRateLimit extends PerServerRateLimit {
  constructor(clock: Clock, limit: number = DEFAULT_SAMPLING_LIMIT.limit, windowMs: number = DEFAULT_SAMPLING_LIMIT.windowMs) {
    super(clock, limit, windowMs);
  }
}
