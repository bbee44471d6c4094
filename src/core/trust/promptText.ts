// The words of the trust prompt, built purely from what the gate knows, so that what a person is asked
// to trust is tested exactly. Whatever the repository wrote that decides what runs is shown in full: the
// command line is never cut, and characters that could hide or fake text (line breaks, bidi controls,
// zero-width characters) are shown as escapes. Env and header values are never shown, only their names,
// nor what `${VAR}` took from the person's environment (shown as `***`, with the variable's name).
import type { EffectiveServer, ShadowedServer } from '../config/types';
import { REDACTED, redactText, redactUrl } from '../lifecycle/redact';
import { hasHiddenCharacters as hasHidden, isHiddenCharacter as isHidden, visible } from '../../protocol/visibleText';
import type { TrustCardRow } from '../../protocol/sidebar';
import type { DangerFlag } from './dangerFlags';
import { formatLaunchChange, runnerConfigSummary } from './launchDiff';
import type { TrustDecision } from './trustDecision';

export { visible };

/** A person's answer: trust and start, look at the file first, don't trust, or decide later (closed). */
export type TrustAnswer = 'trust' | 'review' | 'refuse' | 'later';

/** One server the prompt asks about, with everything the prompt says about it. */
export interface TrustPromptEntry {
  server: EffectiveServer;
  decision: TrustDecision;
  flags: readonly DangerFlag[];
  /** The entries of the same name this server hides (the person's own user server, a plugin's). */
  shadows: readonly ShadowedServer[];
}

/** The prompt as text: a question and the full account of every server. */
export interface TrustPromptText {
  /** The question (a dialog's message line). */
  message: string;
  /** One block per server, separated by blank lines (a dialog's detail; plain text). */
  detail: string;
}

/**
 * The modal prompt's buttons, in the order shown (closing it means "decide later"). The first is the one
 * a dialog focuses, which a stray Enter or Space presses: it only opens the definitions, so trusting is
 * always a deliberate choice of another button.
 */
export const TRUST_PROMPT_CHOICES: readonly { readonly title: string; readonly answer: TrustAnswer }[] = [
  { title: 'Review…', answer: 'review' },
  { title: 'Trust and start', answer: 'trust' },
  { title: "Don't trust", answer: 'refuse' },
];

/** The question and the full account of `entries` (in the order given). */
export function buildTrustPrompt(entries: readonly TrustPromptEntry[]): TrustPromptText {
  const changed = entries.filter((entry) => entry.decision.changedFrom !== undefined).length;
  let message: string;
  if (entries.length === 1) {
    const name = visible(entries[0].server.name);
    message = changed === 1
      ? `The MCP server "${name}" defined by this workspace has changed since you trusted it. Do you trust the new definition?`
      : `Do you trust the MCP server "${name}" defined by this workspace?`;
  } else {
    const note = changed === 0 ? '' : ` (${changed} changed since you trusted ${changed === 1 ? 'it' : 'them'})`;
    message = `Do you trust the ${entries.length} MCP servers defined by this workspace${note}?`;
  }
  const intro = 'A server runs as a program on this computer with your permissions, or connects to the address shown. '
    + 'Trust only what you have checked. Env, env file and header values are not shown.';
  return { message, detail: [intro, ...entries.map(describeEntry)].join('\n\n') };
}

/** The lines about one server. */
export function describeEntry(entry: TrustPromptEntry): string {
  const { server, decision, flags, shadows } = entry;
  const { launch } = server;
  const lines: string[] = [`■ ${visible(server.id)} — defined in ${visible(server.source.file)}:${server.source.line}`];
  // What the repository wrote is shown in full; only what the person's environment filled in is masked.
  const fromEnvironment = Object.values(launch.expandedVars ?? {});
  const mask = (text: string): string => redactText(text, fromEnvironment);
  if (launch.type === 'stdio') {
    lines.push(`Command: ${commandLineText(mask(launch.command ?? ''), launch.args.map(mask))}`);
    if (launch.cwd !== undefined) lines.push(`Working directory: ${visible(mask(launch.cwd))}`);
    lines.push('Transport: stdio');
    const env = Object.keys(launch.env);
    if (env.length > 0) lines.push(`Environment: ${env.map((name) => `${visible(name)}=${REDACTED}`).join(', ')}`);
    if (launch.envFile !== undefined) lines.push(envFileLine(mask(launch.envFile), launch.envFileVars));
    for (const entry of launch.runnerConfig ?? []) lines.push(`Package runner config: ${visible(mask(entry.file))} (${visible(runnerConfigSummary(entry))})`);
  } else {
    lines.push(`URL: ${visible(redactUrl(launch.url ?? '', fromEnvironment))}`);
    lines.push(`Transport: ${launch.type}`);
    const headers = Object.keys(launch.headers);
    if (headers.length > 0) lines.push(`Headers: ${headers.map((name) => `${visible(name)}: ${REDACTED}`).join(', ')}`);
  }
  const expanded = Object.keys(launch.expandedVars ?? {});
  if (expanded.length > 0) lines.push(`From your environment: ${expanded.map((name) => `${visible(name)}=${REDACTED}`).join(', ')}`);
  for (const shadowed of shadows) {
    const whose = shadowed.scope === 'user' || shadowed.scope === 'local' ? 'your ' : 'the ';
    lines.push(`Replaces ${whose}${shadowed.scope} server "${visible(shadowed.name)}" (${visible(shadowed.source.file)})`);
  }
  for (const flag of flags) {
    lines.push(`⚠ ${flag.id}: ${flag.reason}${flag.detail !== undefined ? ` (${visible(mask(flag.detail))})` : ''}`);
  }
  if (decision.state === 'refused') lines.push('You chose not to trust this definition before.');
  if (decision.changedFrom !== undefined) {
    const changes = decision.changes ?? [];
    if (changes.length > 0) {
      lines.push('Changed since you trusted it:', ...changes.map((change) => `    ${visible(formatLaunchChange(change))}`));
    }
  }
  return lines.join('\n');
}

/** The card that asks about a definition the person is editing: what a view shows, and what Trust trusts. */
export type TrustCardText = TrustCardRow;

/** The card for one entry; `blocked` says why Trust is not offered yet (what is on disk is not what is on screen). */
export function buildTrustCard(entry: TrustPromptEntry, blocked?: string): TrustCardText {
  const name = visible(entry.server.name);
  const changes = (entry.decision.changes ?? []).map((change) => ({ kind: change.kind, text: visible(formatLaunchChange(change)) }));
  return {
    serverId: entry.server.id,
    fingerprint: entry.server.fingerprint,
    message: entry.decision.changedFrom !== undefined
      ? `"${name}" changed since you trusted it. Trust the new definition?`
      : `Trust the new MCP server "${name}"?`,
    changes,
    definition: describeEntry(entry),
    ...(blocked !== undefined ? { blocked } : {}),
  };
}

/** The env file and the names it defines (never a value), or why they are not known. */
function envFileLine(file: string, vars: Readonly<Record<string, string>> | undefined): string {
  if (vars === undefined) return `Env file: ${visible(file)} (not read: the server cannot start until it can be read)`;
  const names = Object.keys(vars);
  return `Env file: ${visible(file)} (${names.length === 0 ? 'defines nothing' : `defines ${names.map((name) => `${visible(name)}=${REDACTED}`).join(', ')}`})`;
}

/**
 * The exact command line, each word quoted the way a POSIX shell would need it only when it needs it:
 * `'…'` for spaces and shell characters, `$'…'` with escapes when a word holds a line break or a
 * character that would otherwise be invisible.
 */
export function commandLineText(command: string, args: readonly string[]): string {
  return [command, ...args].map(shellWord).join(' ');
}

function shellWord(word: string): string {
  if (word === '') return "''";
  if (/^[\w@%+=:,./~-]+$/.test(word)) return word;
  if (!hasHidden(word)) return `'${word.replace(/'/g, `'\\''`)}'`;
  let out = '';
  for (const ch of word) {
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ESCAPES[ch] !== undefined) out += ESCAPES[ch];
    else if (isHidden(ch)) {
      const code = ch.codePointAt(0) ?? 0;
      out += code > 0xffff ? `\\U${code.toString(16).toUpperCase().padStart(8, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    } else out += ch;
  }
  return `$'${out}'`;
}

const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
