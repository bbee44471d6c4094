// The start gate for project servers as a host asks it: the pure decision (decideTrust) over the
// remembered decisions and what the host knows right now (Restricted Mode, verified folders), with
// each definition's danger flags computed once. The registry asks gate() synchronously, once per
// server and reconcile; the views ask decide() for the words they show.
import type { EffectiveServer } from '../config/types';
import type { GateAnswer } from '../lifecycle/runDecision';
import type { DangerFlag } from './dangerFlags';
import { promptHoldLabel, promptHoldReason, type PromptHoldReason } from './promptHold';
import { decideTrust, needsTrustDecision, type TrustDecision } from './trustDecision';
import type { TrustLookup } from './trustStore';

/** What the gate needs to know from its host, read at the moment of each decision. */
export interface TrustGateHost {
  /** VS Code Restricted Mode (the workspace itself is not trusted). */
  isRestricted(): boolean;
  /** Whether the folder's git origin matches one of the person's trusted repositories. */
  isVerified(folder: string): boolean;
  /**
   * The danger flags of a definition (may touch the disk: called once per definition); undefined while
   * the host cannot tell yet (its analysis is still loading): asked again after clearFlags().
   */
  dangerFlags(server: EffectiveServer): DangerFlag[] | undefined;
}

/** How many definitions' flags are kept; a workspace has a handful, edits add a few more. */
const FLAG_CACHE_SIZE = 256;

export class TrustGate {
  private readonly flagCache = new Map<string, DangerFlag[]>();

  constructor(private readonly store: TrustLookup, private readonly host: TrustGateHost) {}

  /** The decision for a server now: always `allowed` for the scopes the person wrote themselves. */
  decide(server: EffectiveServer): TrustDecision {
    if (!needsTrustDecision(server)) return decideTrust(server, this.store, { restricted: false, verified: false, dangerFlags: [] });
    const folder = server.scope === 'project' ? server.folder : server.repositoryFolder;
    return decideTrust(server, this.store, {
      restricted: this.host.isRestricted(),
      verified: folder !== undefined && this.host.isVerified(folder),
      dangerFlags: this.knownFlags(server),
    });
  }

  /**
   * The start gate's answer (the registry's port), from one decision: allowed, undecided (a person is to
   * be asked), refused, or restricted (Restricted Mode).
   */
  gate(server: EffectiveServer): GateAnswer {
    return gateAnswerOf(this.decide(server));
  }

  /**
   * The danger flags of a definition that needs trust (none for servers the person wrote that read no
   * workspace file); none either while the host cannot tell yet (see knownFlags).
   */
  flags(server: EffectiveServer): DangerFlag[] {
    return this.knownFlags(server) ?? [];
  }

  /** The flags, or undefined while the host cannot tell yet (nothing is cached then). */
  private knownFlags(server: EffectiveServer): DangerFlag[] | undefined {
    if (!needsTrustDecision(server)) return [];
    const key = `${server.folder ?? server.repositoryFolder ?? ''}\0${server.fingerprint}`;
    let flags = this.flagCache.get(key);
    if (flags === undefined) {
      flags = this.host.dangerFlags(server);
      if (flags === undefined) return undefined;
      if (this.flagCache.size >= FLAG_CACHE_SIZE) this.flagCache.clear();
      this.flagCache.set(key, flags);
    }
    return flags;
  }

  /** Forgets computed flags (the workspace folders or PATH they were computed against changed). */
  clearFlags(): void {
    this.flagCache.clear();
  }
}

/** A decision as the start gate answers it: "needs trust" means a person is still to decide. */
export function gateAnswerOf(decision: TrustDecision): GateAnswer {
  return decision.state === 'needsTrust' ? 'undecided' : decision.state;
}

/**
 * What a view shows for a decision: a state label and, when it says something, the reason; undefined
 * when allowed. `waiting`: the prompt for it is held while its file is edited (TrustPrompts.waiting).
 */
export function trustDisplay(decision: TrustDecision, waiting?: PromptHoldReason): { label: string; reason: string; changed: boolean } | undefined {
  if (decision.state === 'needsTrust' && waiting !== undefined) return { label: promptHoldLabel(waiting), reason: promptHoldReason(waiting), changed: true };
  switch (decision.state) {
    case 'allowed': return undefined;
    case 'refused': return { label: 'not trusted', reason: decision.reason, changed: false };
    case 'restricted': return { label: 'needs trust', reason: decision.reason, changed: false };
    case 'needsTrust': return { label: 'needs trust', reason: decision.reason, changed: decision.changedFrom !== undefined };
  }
}
