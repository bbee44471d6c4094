// The ports of the trust prompts (trustPrompts.ts): what a person may answer, the prompter that asks
// them, and what the host tells the prompts about its configuration, gate, store and files.
import type { EffectiveServer, ShadowedServer } from '../config/types';
import type { Clock } from '../lifecycle/clock';
import type { DangerFlag } from './dangerFlags';
import type { EditingFacts } from './promptHold';
import type { TrustAnswer, TrustPromptEntry, TrustPromptText } from './promptText';

export type { TrustAnswer } from './promptText';
import type { TrustDecision } from './trustDecision';


/** What a prompt shows. */
export interface TrustPromptRequest {
  readonly entries: readonly TrustPromptEntry[];
  readonly text: TrustPromptText;
}

/** Shows one prompt and collects the answer. A rejection counts as "decide later". */
export interface TrustPrompter {
  ask(request: TrustPromptRequest): Promise<TrustAnswer>;
}

export interface TrustPromptsOptions {
  /** The effective servers and the entries they shadow, as the configuration has them now. */
  config(): { readonly servers: readonly EffectiveServer[]; readonly shadowed: readonly ShadowedServer[] };
  gate: {
    decide(server: EffectiveServer): TrustDecision;
    flags(server: EffectiveServer): readonly DangerFlag[];
  };
  store: {
    trust(server: EffectiveServer): Promise<void>;
    refuse(server: EffectiveServer): Promise<void>;
  };
  /** The prompter to use for the next prompt (tests may swap it). */
  prompter(): TrustPrompter;
  /** Opens the definitions of the entries ("Review file"). */
  review(entries: readonly TrustPromptEntry[]): Promise<void>;
  /** Resolves once what the gate reads is current (e.g. the verified folders); awaited before each prompt. */
  ready?(): Promise<void>;
  /** Told when a prompt could not be shown or an answer could not be stored. */
  onProblem(message: string): void;
  /**
   * The config files as the host sees them: whether an editor holds unsaved changes and whether the
   * last read parsed; and which of the given files changed on disk since the configuration read them.
   * Without it every file counts as saved, valid and unchanged.
   */
  files?: {
    facts(file: string): FileFacts;
    changedOnDisk(files: readonly string[]): Promise<readonly string[]>;
  };
  /** The timers of the settle delay (tests pass a fake). Default: the real clock. */
  clock?: Clock;
  /** How long a file must stay unchanged before it is asked about. Default PROMPT_SETTLE_MS. */
  settleMs?: number;
}

/** What the host knows of a config file right now; `editing` absent: not open in an editor. */
export interface FileFacts {
  readonly dirty: boolean;
  readonly usable: boolean;
  readonly editing?: EditingFacts;
}

/** A person's answer on a card: trust and start that exact definition, or don't. */
export type TrustCardAnswer = 'trust' | 'refuse';
