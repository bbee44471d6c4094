// Which protocol generation to ask a server for. Both generations: the Client first asks
// `server/discover` and speaks 2026-07-28 when the server does, else falls back to `initialize`
// (2025-11-25). On stdio, a server that stays silent to the probe is an old one (some never answer a
// request before `initialize`); after PROBE_TIMEOUT_MS the Client falls back on the same pipe. Over the
// network silence is an outage, and the core's startup timeout bounds it. The SSE and WebSocket
// transports only ever carried the old generation.
import type { ClientOptions } from './sdk';

/** How long a stdio server may stay silent to the `server/discover` probe before it is taken for an old one. */
export const PROBE_TIMEOUT_MS = 3_000;

/** The longest delay a timer takes (about 24.8 days; a longer one would fire at once): "no limit" for the SDK. */
export const NEVER_MS = 2_147_483_647;

export type ConnectKind = 'stdio' | 'http' | 'sse' | 'ws';

export function negotiationFor(kind: ConnectKind): ClientOptions['versionNegotiation'] {
  if (kind === 'sse' || kind === 'ws') return { mode: 'legacy' };
  return { mode: 'auto', probe: { timeoutMs: kind === 'stdio' ? PROBE_TIMEOUT_MS : NEVER_MS } };
}
