// What the pattern files of every language share: the reasons findings give (the same id in every
// language, so a finding reads the same whichever language the page was in), the files that hold
// secrets (named the same in every language), and the word boundaries that work beyond ASCII.
import type { PoisoningPattern } from '../poisoning';

/** Why each kind of finding matters, as the sidebar and the warning say it. */
export const REASONS = {
  'ignore-instructions': 'tells the model to ignore its earlier instructions',
  'disregard-instructions': 'tells the model to disregard instructions or rules',
  'hide-from-user': 'tells the model to keep something from the user',
  'without-user-knowing': 'asks for something to be done without the user knowing',
  'sensitive-file-request': 'asks to read or pass along a file that holds keys, passwords or other secrets',
  'read-secrets': 'asks to pass along credentials, keys or passwords',
  exfiltrate: 'asks to send data to a web address, or to exfiltrate it',
  'tool-shadowing': 'tells the model to do something else first whenever a tool is used (tool shadowing)',
  'skip-confirmation': 'tells the model not to ask the user for confirmation',
  'role-override': 'tries to give the model a new role or new rules',
  'reveal-system-prompt': 'asks the model to reveal its system prompt or its conversation',
  'addressed-to-model': 'addresses the model directly with an order',
} as const;

export type PatternId = keyof typeof REASONS;

/** One pattern of `id`, matched case-insensitively with Unicode semantics on the folded text (see normalise.ts). */
export function pattern(id: PatternId, source: string): PoisoningPattern {
  return { id, reason: REASONS[id], pattern: new RegExp(source, 'iu') };
}

/**
 * One pattern of `id` for a language written in Latin letters, which the folded text spells in ASCII
 * (accents dropped): without the `u` flag, so the patterns of these languages share one union that
 * rules most texts out in one pass (see patternUnion).
 */
export function latinPattern(id: PatternId, source: string): PoisoningPattern {
  return { id, reason: REASONS[id], pattern: new RegExp(source, 'i') };
}

/** Not after a letter, and not before one: `\b` for any script. */
export const B = String.raw`(?<![\p{L}\p{N}_])`;
export const E = String.raw`(?![\p{L}\p{N}_])`;

/** Files that hold keys or passwords, named exactly (`.env.example` and `~/.ssh` alone are ordinary in docs). */
export const SECRET_FILE = String.raw`(?:~?[\\/]?\.ssh[\\/](?:id_\w+|authorized_keys|known_hosts|config)\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\.aws[\\/](?:credentials|config)\b|\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials\b|\.pgpass\b|\.docker[\\/]config\.json|\.kube[\\/]config\b|\/etc\/(?:passwd|shadow|sudoers)\b|\.env(?:\.(?:local|production|prod|development|dev|staging))?(?![\w.-]*\w)|\bcredentials\.json\b|claude_desktop_config\.json|\.cursor[\\/]mcp\.json)`;

/** A web address (what exfiltration sends to). */
export const URL = String.raw`(?:https?|wss?|ftp):\/\/\S+`;

/** At most `n` characters within one sentence (no full stop, no line break), lazily. */
export function within(n: number): string {
  return `[^.!?。！？\\n]{0,${n}}?`;
}
