// How many elicitations a server may ask for: like sampling, at most `limit` in any `windowMs` per
// server; one asking more often is refused without a card or a notification.
import type { Clock } from '../lifecycle/clock';
import { PerServerRateLimit } from '../pending/rateLimit';

export const DEFAULT_ELICITATION_LIMIT = { limit: 10, windowMs: 60_000 } as const;

export class ElicitationRateLimit extends PerServerRateLimit {
  constructor(clock: Clock, limit: number = DEFAULT_ELICITATION_LIMIT.limit, windowMs: number = DEFAULT_ELICITATION_LIMIT.windowMs) {
    super(clock, limit, windowMs);
  }
}

/** The error a server gets for an elicitation over its limit. */
export function tooManyElicitations(serverName: string, retryInMs: number): Error {
  return new Error(`too many elicitation requests from "${serverName}": try again in ${Math.ceil(retryInMs / 1000)} s`);
}
