// When a trust prompt may be shown for a config file a person may be editing. VS Code in the browser
// autosaves: every pause in typing writes a half-typed definition to disk, and a modal prompt for it
// would interrupt the edit and ask about something the person never meant. So a file is asked about
// only when no editor holds unsaved changes of it, it parses, and it has not changed for a moment;
// until then its servers wait (shown in the views, never in a modal).
import type { Clock } from '../lifecycle/clock';

/** Why a file's servers are not asked about yet. */
export type PromptHoldReason = 'unsaved' | 'invalid' | 'settling';

/** Whether a file's servers may be asked about now; `retryAt` says when to look again (settling only). */
export type PromptHold =
  | { readonly kind: 'ready' }
  | { readonly kind: 'wait'; readonly reason: PromptHoldReason; readonly retryAt?: number };

/** What is known about a config file when a prompt would be shown. */
export interface PromptFileFacts {
  /** An editor holds unsaved changes of it. */
  readonly dirty: boolean;
  /** The text last read from disk parsed as a configuration (no syntax error, an object). */
  readonly usable: boolean;
  /** When it last changed (an edit in an editor, a save, a change on disk); undefined when never seen changing. */
  readonly lastChangeAt: number | undefined;
}

/** How long a file must stay unchanged before its servers are asked about. */
export const PROMPT_SETTLE_MS = 1500;

/**
 * Decides whether a file's servers may be asked about now: not while an editor has unsaved changes
 * (the prompt would show what is on disk, not what is on screen), not while it does not parse, and
 * not until `settleMs` after its last change.
 */
export function promptHold(facts: PromptFileFacts, now: number, settleMs: number = PROMPT_SETTLE_MS): PromptHold {
  if (facts.dirty) return { kind: 'wait', reason: 'unsaved' };
  if (!facts.usable) return { kind: 'wait', reason: 'invalid' };
  if (facts.lastChangeAt !== undefined && now < facts.lastChangeAt + settleMs) {
    return { kind: 'wait', reason: 'settling', retryAt: facts.lastChangeAt + settleMs };
  }
  return { kind: 'ready' };
}

/** The label a view shows for a server whose file is held. */
export const WAITING_LABEL = 'changed — waiting for trust';

/** One sentence for a held server: why it is not asked about yet, and what makes the prompt come. */
export function promptHoldReason(reason: PromptHoldReason): string {
  switch (reason) {
    case 'unsaved': return 'the file has unsaved changes: you are asked to trust it once it is saved';
    case 'invalid': return 'the file does not parse: you are asked to trust it once it is valid';
    case 'settling': return 'the file is being edited: you are asked to trust it once it stays unchanged for a moment';
  }
}

/** Remembers when each config file last changed, on a clock, for promptHold. */
export class FileChangeTimes {
  private readonly changedAt = new Map<string, number>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  /** Records a change of the file now. */
  touch(file: string): void {
    this.changedAt.set(file, this.clock.now());
  }

  /** When the file last changed, if it was seen changing. */
  lastChangeAt(file: string): number | undefined {
    return this.changedAt.get(file);
  }
}
