// "May this server run now?" as one pure function. The registry asks it on every reconcile (what to do
// with a new or changed definition) and when a person starts a server (requestStart: start, ask for
// trust, or refuse). Everything it depends on comes in as plain facts, so the whole trust gate
// reads as one table (see test/unit/lifecycle.runDecision.test.ts).

/** The start gate's answer for one definition. */
export type GateAnswer =
  /** May start without anyone being asked (a scope the person wrote, a trusted definition, a verified repository). */
  | 'allowed'
  /** Not yet: a person is to be asked (never trusted, or changed since it was trusted). */
  | 'undecided'
  /** No, and nothing asks again until the definition changes (or the host cannot wait for an answer). */
  | 'refused'
  /** No: the workspace is in Restricted Mode. */
  | 'restricted';

/** What is known about one definition of a server. */
export interface DefinitionFacts {
  /** Its entry says `"disabled": true` (for a Start: the server is parked as disabled). */
  disabled: boolean;
  gate: GateAnswer;
  /** A person explicitly started exactly this definition (this fingerprint) in this session. */
  startedByPerson: boolean;
}

/** The definition the server still runs, when a reconcile brings a different one. */
export interface RunningFacts extends DefinitionFacts {
  /** A process or connection exists or is on its way (starting, ready, crashed, restarting). */
  live: boolean;
  /** The registry meant it to run (it was not parked). */
  wanted: boolean;
}

export type RunQuestion =
  /** The configuration or the gate changed: what becomes of this definition? `running` only when another definition is running. */
  | { trigger: 'reconcile'; next: DefinitionFacts; running?: RunningFacts }
  /** A person pressed Start (or Restart on a parked server). */
  | { trigger: 'start'; next: DefinitionFacts };

export type RunDecision =
  | { kind: 'run' }
  /** Keep running the previous definition until the gate decides about the new one. */
  | { kind: 'keepPrevious' }
  /** Hold the server, not running, in this state. */
  | { kind: 'park'; state: 'needsTrust' | 'disabled' }
  /** Start only after a person trusted it in the trust prompt (then ask again). */
  | { kind: 'askTrust' }
  /** A Start that cannot be granted, and why. */
  | { kind: 'refuse'; reason: 'disabled' | 'restricted' };

/**
 * Decides whether a server may run now. On a reconcile: a disabled entry is parked as disabled; an
 * allowed definition, or one a person started, runs; a changed definition awaiting a decision keeps the
 * previous one running when that one runs and is still allowed; anything else is parked as needsTrust.
 * On a Start: a disabled server or Restricted Mode refuses, an allowed definition runs, any other asks.
 */
export function decideRun(question: RunQuestion): RunDecision {
  const { next } = question;
  if (question.trigger === 'start') {
    if (next.disabled) return { kind: 'refuse', reason: 'disabled' };
    if (next.gate === 'restricted') return { kind: 'refuse', reason: 'restricted' };
    // A Start never passes the gate silently: whatever was started before, a person is asked again.
    return next.gate === 'allowed' ? { kind: 'run' } : { kind: 'askTrust' };
  }
  if (next.disabled) return { kind: 'park', state: 'disabled' };
  if (next.gate === 'allowed' || next.startedByPerson) return { kind: 'run' };
  const running = question.running;
  if (next.gate === 'undecided' && running !== undefined && running.live && running.wanted
    && (running.gate === 'allowed' || running.startedByPerson)) return { kind: 'keepPrevious' };
  return { kind: 'park', state: 'needsTrust' };
}
