// A person's Start, as one policy in the core (the registry's requestStart): a server the gate allows
// starts; one that needs trust starts only once a person trusted it, through the host's prompt; a
// disabled server, one held for another host, and any in Restricted Mode are refused, saying why.
import { decideRun, type DefinitionFacts } from './runDecision';

/** Shows the host's trust prompt for a server; resolves once it was answered (however it was answered). */
export type AskTrust = (id: string) => Promise<unknown>;

/** How a Start that was not refused ended: started (ready or failed), or trust was not given. */
export type StartResult = 'started' | 'notTrusted';

/** Why a Start cannot be granted. */
export type StartRefusal = 'disabled' | 'hostedElsewhere' | 'restricted';

/** A Start that cannot be granted, with a message for people that says why and what would change it. */
export class StartRefusedError extends Error {
  constructor(readonly serverId: string, readonly refusal: StartRefusal, readonly detail?: string) {
    super(refusalMessage(serverId, refusal, detail));
    this.name = 'StartRefusedError';
  }
}

function refusalMessage(id: string, refusal: StartRefusal, detail: string | undefined): string {
  switch (refusal) {
    case 'restricted': return `"${id}" is defined by this workspace, which is open in Restricted Mode: trust the workspace to start it.`;
    case 'hostedElsewhere': return `"${id}" is not started by Switchboard: ${detail ?? 'another host runs it'}.`;
    case 'disabled': return `"${id}" is disabled in its configuration ("disabled": true). Remove that to start it.`;
  }
}

/** The facts of a Start of one server now, as the registry knows them. */
export interface StartFacts extends DefinitionFacts {
  /** Why it is held although its entry enables it (another host runs it), when it is. */
  heldBecause?: string;
}

/** What the policy needs of the registry. */
export interface StartTarget {
  /** The facts of a Start of this server now; undefined when it is not configured (any more). */
  startFacts(id: string): StartFacts | undefined;
  /** Starts it past the gate for its current definition. */
  start(id: string): Promise<void>;
}

/**
 * Runs a person's Start. Throws StartRefusedError when it cannot be granted; resolves with 'notTrusted'
 * when trust was asked for and not given (or the definition changed while the prompt was open: only
 * what was trusted starts), else once the server is ready or has failed.
 */
export async function requestStart(target: StartTarget, id: string, askTrust: AskTrust): Promise<StartResult> {
  const facts = target.startFacts(id);
  if (facts === undefined) throw new Error(`unknown MCP server: ${id}`);
  const decision = decideRun({ trigger: 'start', next: facts });
  switch (decision.kind) {
    case 'refuse':
      if (decision.reason === 'restricted') throw new StartRefusedError(id, 'restricted');
      throw facts.heldBecause !== undefined ? new StartRefusedError(id, 'hostedElsewhere', facts.heldBecause) : new StartRefusedError(id, 'disabled');
    case 'askTrust': {
      await askTrust(id);
      const now = target.startFacts(id);
      if (now === undefined || decideRun({ trigger: 'start', next: now }).kind !== 'run') return 'notTrusted';
      break;
    }
    case 'run': break;
    default: throw new Error(`not a start decision: ${decision.kind}`);
  }
  await target.start(id);
  return 'started';
}
