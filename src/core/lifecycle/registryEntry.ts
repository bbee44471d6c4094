// What the ServerRegistry keeps per server, and the small rules it reads them by: its own module so
// that the registry stays about reconciling.
import type { DisposableStore } from '../disposable';
import type { EffectiveServer } from '../config/types';
import type { RunDecision } from './runDecision';
import type { SendToolCall, ServerController } from './serverController';

/** What reconcile wants for a server: run it, or hold it in one of the parked states. */
export type Want = 'run' | 'needsTrust' | 'disabled';

/** One server of the registry. */
export interface Entry {
  controller: ServerController;
  /** The controller's tools/call, used only by the caller handed to the gate. */
  sendToolCall: SendToolCall;
  want: Want;
  /** Why a `disabled` server is held though its entry enables it (hostedElsewhere). */
  parkReason?: string;
  relay: DisposableStore;
  /** A newer definition awaiting the gate's decision while the controller keeps running the previous one. */
  held?: EffectiveServer;
}

/** The registry's wish for a server after a reconcile decision (keepPrevious is handled before). */
export function wantOf(decision: RunDecision): Want {
  switch (decision.kind) {
    case 'run': return 'run';
    case 'park': return decision.state;
    default: throw new Error(`not a reconcile decision: ${decision.kind}`);
  }
}

/** A server with a process (or one on its way): what "keep it running" can apply to. */
export function isLive(kind: string): boolean {
  return kind === 'ready' || kind === 'starting' || kind === 'restarting' || kind === 'crashed';
}
