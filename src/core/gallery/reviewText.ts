// The text of the install review (gallery and install links): the whole definition a person is asked to
// install — command line, env and header values, URL, what it reads from the environment — and where
// every value it needs comes from: a new value asked for under the server's own input, or one already
// kept that the person picked, named with the servers that use it. Every environment variable that is
// not in the shell reader's inert allowlist is marked, the same table approvals use.
import { expandVariables } from '../config/variables';
import type { ImportedEntry, ImportedInput } from '../import/types';
import { isInertVariable } from '../shell';
import { visible } from '../../protocol/visibleText';
import type { OwnInput, Reuse } from './ownInputs';

/** A server offered for installing, whole, as the gallery or a link gives it. */
export interface InstallCandidate {
  name: string;
  entry: ImportedEntry;
  inputs: ImportedInput[];
  /** Where it comes from, for people: `the registry https://… (io.github.x/y 1.2.0)`, `an install link`. */
  origin: string;
  needs: string[];
  /** What it could have and will not get (optional settings, fields of a link not taken). */
  leftOut: string[];
}

/** What the review shows: the candidate as it will be written, under its name, in its target. */
export interface InstallReview {
  candidate: InstallCandidate;
  name: string;
  target: { file: string; scope: 'user' | 'local' | 'project' };
  replace: boolean;
  /** The entry as written: its references renamed to its own inputs, or to the values the person picked. */
  entry: ImportedEntry;
  /** The inputs it gets, asked for as new values. */
  inputs: readonly OwnInput[];
  /** The values the person picked instead of a new one. */
  reused: readonly { own: OwnInput; reuse: Reuse }[];
}

/** The review's lines: every value whole, so the click is an informed one. */
export function installReviewText(review: InstallReview): string {
  const { candidate, entry, name, target } = review;
  const lines = [`"${shown(name)}"${review.replace ? ' (replaces the existing entry)' : ''}, from ${candidate.origin}`, `into ${target.file}`, ''];
  // Each argument on its own and quoted when it is not a plain word, so `["a b"]` never reads as `a b`
  // and a line break or a hidden character inside one cannot fake a line of this review.
  if (entry.command !== undefined) lines.push(`Runs (${entry.type}): ${[entry.command, ...(entry.args ?? [])].map(word).join(' ')}`);
  if (entry.url !== undefined) lines.push(`Connects (${entry.type}) to: ${shown(entry.url)}`);
  if (entry.cwd !== undefined) lines.push(`In folder: ${shown(entry.cwd)}`);
  for (const [key, value] of Object.entries(entry.env ?? {})) {
    lines.push(`Environment: ${shown(key)}=${word(value)}${isInertVariable(key) ? '' : ' ⚠ not a variable known to leave what runs unchanged: it may change which program or code runs'}`);
  }
  if (entry.envFile !== undefined) lines.push(`Environment file: ${shown(entry.envFile)} (its variables are read when the server starts)`);
  for (const [key, value] of Object.entries(entry.headers ?? {})) lines.push(`Header: ${shown(key)}: ${word(value)}`);
  const environment = environmentOf(entry);
  if (environment.length > 0) lines.push(`Reads from your environment: ${environment.map(shown).join(', ')} — you picked it; the value is sent to the server as written above`);
  if (review.inputs.length > 0) {
    lines.push(`Asks for a new value: ${review.inputs.map(describeNew).join(', ')} — kept in VS Code's secret storage for this server, not in the file`);
  }
  for (const { own, reuse } of review.reused) {
    lines.push(reuse.kind === 'input'
      ? `Uses the value you picked for ${askedText(own)}: \${input:${shown(reuse.id)}}, ${reuse.servers.length > 0 ? `already used by ${reuse.servers.map(shown).join(', ')}` : 'declared by the file, used by no server'}`
      : `Uses your environment's ${shown(reuse.name)} for ${askedText(own)}, as you picked`);
  }
  if (candidate.needs.length > 0) lines.push(`Needs: ${candidate.needs.join('; ')}`);
  if (candidate.leftOut.length > 0) lines.push(`Not installed: ${candidate.leftOut.join('; ')}`);
  if (target.scope === 'project') lines.push('', 'Project servers are shared through the repository and need trust before they start.');
  return lines.join('\n');
}

/** `id (secret; for ${input:token})`: what the source asked for is said when its id is not the one kept. */
function describeNew(own: OwnInput): string {
  const notes = [own.input.password === true ? 'secret' : undefined, own.asked.kind === 'input' && own.asked.id === own.input.id ? undefined : `for ${askedText(own)}`]
    .filter((note): note is string => note !== undefined);
  return notes.length === 0 ? shown(own.input.id) : `${shown(own.input.id)} (${notes.join('; ')})`;
}

/** What the source asked for, for people: `${input:token}`, `your environment's GITHUB_TOKEN`. */
function askedText(own: OwnInput): string {
  return own.asked.kind === 'input' ? `\${input:${shown(own.asked.id)}}` : `your environment's ${shown(own.asked.name)}`;
}

/** Text with its hidden characters (bidi controls, zero-width, tags) spelled out. */
const shown = (text: string): string => visible(text);

/** A word of a command line or a value: as it is when plain, else quoted (line breaks and hidden characters escaped). */
function word(text: string): string {
  return /^[\w@%+=:,./~-]+$/.test(text) ? text : visible(JSON.stringify(text));
}

/** The environment variables the entry's strings read, each once, as expansion would take them. */
function environmentOf(entry: ImportedEntry): string[] {
  const strings = [entry.command, ...(entry.args ?? []), entry.url, entry.cwd, entry.envFile, ...Object.values(entry.env ?? {}), ...Object.values(entry.headers ?? {})]
    .filter((text): text is string => text !== undefined);
  // Every name reads as set, so the expansion names each variable it would take from the environment.
  const env = new Proxy<Record<string, string>>({}, { get: (_target, key) => (typeof key === 'string' ? '' : undefined) });
  const environment = new Set<string>();
  for (const text of strings) for (const variable of Object.keys(expandVariables(text, { env, userHome: '~' }).fromEnvironment)) environment.add(variable);
  return [...environment].sort();
}
