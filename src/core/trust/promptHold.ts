// When a trust prompt may be shown for a config file a person may be editing. VS Code in the browser
// autosaves: every pause in typing writes a half-typed definition to disk, and a modal prompt for it
// would take the next keystroke as its answer. So a definition the person is editing (its file open in
// an editor that had a keystroke in the last minute) is never asked about in a modal, whatever the
// pause: its server says "changed — review to trust" and the Sidebar shows a card to decide on. A
// change from outside (a pull, another program) still gets the modal, once no editor holds unsaved
// changes of the file, it parses, and it has not changed for a moment; until then its servers wait.
import type { Clock } from '../lifecycle/clock';

/**
 * Why a file's servers are not asked about in a modal (yet): `review` — the person is editing it, so
 * a card in the Sidebar asks instead; the others hold the modal until the file is saved, valid, settled.
 */
export type PromptHoldReason = 'review' | 'unsaved' | 'invalid' | 'settling';

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
  /** It is open in an editor (a tab), and when that editor last had a keystroke in it (undefined: never seen). */
  readonly editing?: EditingFacts;
}

/** Whether a person is editing a file in VS Code: the two facts trustRoute decides on. */
export interface EditingFacts {
  readonly openInEditor: boolean;
  readonly lastKeystrokeAt: number | undefined;
}

/** How recent a keystroke in an open editor makes its file "being edited": a card, never a modal. */
export const EDITING_WINDOW_MS = 60_000;

/** Where a changed definition is asked about: a card beside the views, or a modal prompt. */
export type TrustRoute = 'card' | 'modal';

/**
 * The card for a file open in an editor that had a keystroke within `windowMs` (the person is editing
 * it: a modal would take their next key as its answer); the modal for any other change (from outside).
 */
export function trustRoute(editing: EditingFacts | undefined, now: number, windowMs: number = EDITING_WINDOW_MS): TrustRoute {
  if (editing === undefined || !editing.openInEditor || editing.lastKeystrokeAt === undefined) return 'modal';
  return now - editing.lastKeystrokeAt <= windowMs ? 'card' : 'modal';
}

/** How long a file must stay unchanged before its servers are asked about. */
export const PROMPT_SETTLE_MS = 1500;

/**
 * Decides whether a file's servers may be asked about in a modal now: never while the person edits it
 * (trustRoute: a card asks), not while an editor has unsaved changes (the prompt would show what is on
 * disk, not what is on screen), not while it does not parse, and not until `settleMs` after its last change.
 */
export function promptHold(facts: PromptFileFacts, now: number, settleMs: number = PROMPT_SETTLE_MS): PromptHold {
  if (trustRoute(facts.editing, now) === 'card') return { kind: 'wait', reason: 'review' };
  if (facts.dirty) return { kind: 'wait', reason: 'unsaved' };
  if (!facts.usable) return { kind: 'wait', reason: 'invalid' };
  if (facts.lastChangeAt !== undefined && now < facts.lastChangeAt + settleMs) {
    return { kind: 'wait', reason: 'settling', retryAt: facts.lastChangeAt + settleMs };
  }
  return { kind: 'ready' };
}

/** The label a view shows for a server whose file is held. */
export const WAITING_LABEL = 'changed — waiting for trust';

/** The label a view shows for a server whose definition a card asks about (the person edits its file). */
export const REVIEW_LABEL = 'changed — review to trust';

/** The label a view shows for a held server, by why it is held. */
export function promptHoldLabel(reason: PromptHoldReason): string {
  return reason === 'review' ? REVIEW_LABEL : WAITING_LABEL;
}

/** One sentence for a held server: why it is not asked about yet, and what makes the prompt come. */
export function promptHoldReason(reason: PromptHoldReason): string {
  switch (reason) {
    case 'review': return 'you are editing the file: review the change in the Sidebar\'s card, then Trust and start or Don\'t trust';
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
