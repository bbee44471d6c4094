// Which protocol generation to ask a server for. Both generations: the Client first asks
// `server/discover` and speaks 2026-07-28 when the server does, else falls back to `initialize`
// (2025-11-25). On stdio, a server that stays silent to the probe is an old one (some never answer a
// request before `initialize`); after PROBE_TIMEOUT_MS the Client falls back on the same pipe. Over the
// network silence is an outage, and the core's startup timeout bounds it. The SSE and WebSocket
// transports only ever carried the old generation.
//
// Old stdio servers should cost nothing for the probe: the generation a stdio server definition spoke
// is remembered (per definition: id and fingerprint, for the life of the connector), and a definition
// known to be old is started with `initialize` straight away (the SDK's `prior` verdict). Our stdio
// transport probes in place, so a server that exits on the unknown first request (servers on SDKs that
// end on any request before `initialize`) fails the probe: the connector starts it once more with
// `initialize`, and remembers it as old when that works. A server that exits at start whatever it is
// sent cannot be told apart from one that exits on the probe: it is started twice, then fails. A start
// with `initialize` that fails forgets the verdict: the same definition may run a newer package now
// (`npx -y pkg@latest`) that speaks only the new generation, and the next start probes again.
import type { EffectiveServer } from '../core/config/types';
import { SdkError, SdkErrorCode, type ClientOptions, type ConnectOptions, type ProtocolEra } from './sdk';

/** How long a stdio server may stay silent to the `server/discover` probe before it is taken for an old one. */
export const PROBE_TIMEOUT_MS = 3_000;

/** The longest delay a timer takes (about 24.8 days; a longer one would fire at once): "no limit" for the SDK. */
export const NEVER_MS = 2_147_483_647;

export type ConnectKind = 'stdio' | 'http' | 'sse' | 'ws';

export function negotiationFor(kind: ConnectKind): ClientOptions['versionNegotiation'] {
  if (kind === 'sse' || kind === 'ws') return { mode: 'legacy' };
  return { mode: 'auto', probe: { timeoutMs: kind === 'stdio' ? PROBE_TIMEOUT_MS : NEVER_MS } };
}

/** The generation each stdio server definition spoke last, so that an old one is not probed again. */
export class GenerationMemory {
  private readonly old = new Set<string>();

  private static key(server: EffectiveServer): string {
    return `${server.id}\n${server.fingerprint}`;
  }

  /** Whether `server` is known to speak only the old generation (stdio only; remote servers are always asked). */
  knownOld(server: EffectiveServer, kind: ConnectKind): boolean {
    return kind === 'stdio' && this.old.has(GenerationMemory.key(server));
  }

  /** The connect options for what is known of `server`: the old generation's `initialize` without a probe. */
  connectOptions(server: EffectiveServer, kind: ConnectKind): Pick<ConnectOptions, 'prior'> {
    return this.knownOld(server, kind) ? { prior: { kind: 'legacy' } } : {};
  }

  /** Remembers what a stdio connection negotiated. */
  record(server: EffectiveServer, kind: ConnectKind, era: ProtocolEra | undefined): void {
    if (kind !== 'stdio' || era === undefined) return;
    if (era === 'legacy') this.old.add(GenerationMemory.key(server));
    else this.old.delete(GenerationMemory.key(server));
  }

  /** Remembers `server` as old: it ended the connection on the probe. */
  markOld(server: EffectiveServer): void {
    this.old.add(GenerationMemory.key(server));
  }

  /** Forgets what was remembered of `server` (it failed with `initialize`: as well as on the probe, or since it was upgraded). */
  forget(server: EffectiveServer): void {
    this.old.delete(GenerationMemory.key(server));
  }
}

/** Whether `error` is the Client's probe failing because the connection closed under it (the server exited on it). */
export function closedOnProbe(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && /closed during the server\/discover probe/.test(error.message);
}
