// Command signatures: what "Always allow" on a shell-like tool is scoped to. A command is parsed with a
// real bash grammar and every segment of it (each simple command of a list, pipeline, subshell, loop…)
// gets a signature — the program plus the words that select what it does: `cd /x && python -m pytest
// tests/` is `cd` and `python -m pytest`. A later command is auto-approved only when every one of its
// signatures is allowed and nothing in it can change what runs behind the signatures' back:
// substitutions, heredocs, writes into files, unparseable text, an environment that swaps the program.
import { changesWhatRuns } from './programTables';
import { HARMLESS_TARGETS, quoteWords, type Reading } from './reading';
import { readSegment } from './segmentRules';
import { fieldChildren, namedChildren, type ShellNode, type ShellParser } from './shellSyntax';
import { hidesSubstitution, literalValue, shellWord, type ShellWord } from './shellValues';

export type { Reading } from './reading';

/** Longer commands are never auto-approved (a command worth approving at a glance is not 32 KiB long). */
export const MAX_COMMAND_LENGTH = 32 * 1024;
/** How deep `sh -c` and `eval` scripts may nest before the command is refused. */
const MAX_SCRIPT_DEPTH = 8;
/** How deep the syntax tree may nest before the command is refused. */
const MAX_TREE_DEPTH = 200;

/** Whether a command is auto-approved under the allowed signatures, and why: the CLI's JSON shape, key for key. */
export interface ApprovalCheck {
  command: string;
  signatures: string[];
  autoApproved: boolean;
  reason: string;
}

/** The signatures of a command, and the reason it can never be auto-approved when it cannot. */
export function signaturesOf(command: string, parser: ShellParser): Reading {
  return read(command, parser, 0);
}

/** Whether every signature of `command` is in `allowed`, and nothing in it rules auto-approval out. */
export function isAutoApproved(command: string, allowed: Iterable<string>, parser: ShellParser): ApprovalCheck {
  const reading = signaturesOf(command, parser);
  const { signatures } = reading;
  if (reading.never !== undefined) return { command, signatures, autoApproved: false, reason: sentence(`never auto-approved: ${reading.never}`) };
  if (signatures.length === 0) return { command, signatures, autoApproved: false, reason: 'It runs no program that an "Always allow" rule could match.' };
  const rules = new Set(allowed);
  const missing = signatures.filter((signature) => !rules.has(signature));
  if (missing.length === 0) return { command, signatures, autoApproved: true, reason: `Every segment is allowed: ${codeList(signatures)}.` };
  const verb = missing.length === 1 ? 'is' : 'are';
  return { command, signatures, autoApproved: false, reason: `${codeList(missing)} ${verb} not allowed by any "Always allow" rule.` };
}

/** The rules that "Always allow" on each of `commands` creates: the union of their signatures, in order. */
export function alwaysAllowRules(commands: Iterable<string>, parser: ShellParser): string[] {
  const rules: string[] = [];
  for (const command of commands) {
    for (const signature of signaturesOf(command, parser).signatures) if (!rules.includes(signature)) rules.push(signature);
  }
  return rules;
}

function codeList(items: string[]): string {
  const quoted = items.map((item) => `\`${item}\``);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

function sentence(text: string): string {
  const trimmed = text.replace(/[.\s]+$/, '');
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`;
}

function read(command: string, parser: ShellParser, depth: number): Reading {
  if (command.trim() === '') return { signatures: [], never: 'the command is empty' };
  if (command.length > MAX_COMMAND_LENGTH) return { signatures: [], never: `the command is longer than ${MAX_COMMAND_LENGTH} characters` };
  if (command.includes('\0')) return { signatures: [], never: 'the command holds a NUL character' };
  const parsed = parser.parse(command);
  if (!parsed.ok) return { signatures: [], never: `it cannot be read as a shell command: ${parsed.reason}` };
  const walker = new Walker(parser, depth);
  walker.visit(parsed.root, false, 0);
  return walker.result();
}

/** Walks one syntax tree, collecting every segment's signatures and the first reason for "never". */
class Walker {
  private readonly signatures: string[] = [];
  private never: string | undefined;

  constructor(private readonly parser: ShellParser, private readonly depth: number) {}

  result(): Reading {
    return this.never === undefined ? { signatures: this.signatures } : { signatures: this.signatures, never: this.never };
  }

  private add(reading: Reading): void {
    for (const signature of reading.signatures) if (!this.signatures.includes(signature)) this.signatures.push(signature);
    if (reading.never !== undefined) this.refuse(reading.never);
  }

  private refuse(reason: string): void {
    this.never ??= reason;
  }

  /** Visits `node`; `stdinFed` says its standard input is a pipe or a redirection. */
  visit(node: ShellNode, stdinFed: boolean, level: number): void {
    if (level > MAX_TREE_DEPTH) return this.refuse('it is nested too deeply to read');
    switch (node.type) {
      case 'command':
        return this.segment(node, stdinFed, level);
      case 'redirected_statement': {
        const redirects = node.children.filter((child) => child.field === 'redirect' || isRedirect(child));
        const fed = this.redirects(redirects, level) || stdinFed;
        // `git >/dev/null push`: the grammar files `push` under the redirection, bash passes it to git.
        const trailing = redirects.flatMap(extraDestinations);
        for (const body of fieldChildren(node, 'body')) {
          if (body.type === 'command') this.segment(body, fed, level + 1, trailing);
          else {
            if (trailing.length > 0) this.refuse(`\`${clip(trailing[0].text)}\` follows a redirection of a compound command`);
            this.visit(body, fed, level + 1);
          }
        }
        return;
      }
      case 'pipeline':
        namedChildren(node).forEach((child, index) => this.visit(child, index > 0 || stdinFed, level + 1));
        return;
      case 'command_substitution':
        return this.refuse(node.text.startsWith('`')
          ? `backticks run a command and use its output (${clip(node.text)})`
          : `\`$(…)\` runs a command and uses its output (${clip(node.text)})`);
      case 'process_substitution':
        return this.refuse(`\`${node.text.slice(0, 2)}…)\` runs a command through a pipe named like a file (${clip(node.text)})`);
      case 'heredoc_redirect':
      case 'file_redirect':
      case 'herestring_redirect':
        this.redirects([node], level);
        return;
      case 'variable_assignment':
        return this.assignment(node, level);
      case 'comment':
        return;
      case 'ERROR':
        return this.refuse(`it is not valid shell syntax near \`${clip(node.text)}\``);
      default:
        if (hidesSubstitution(node)) return this.refuse(`\`${clip(node.text)}\` holds text that bash may run as a command but the parser read as plain text`);
        for (const child of namedChildren(node)) this.visit(child, stdinFed, level + 1);
    }
  }

  /** One simple command: prefix assignments, redirections, then its words' signatures. */
  private segment(node: ShellNode, stdinFed: boolean, level: number, trailing: ShellNode[] = []): void {
    const words: ShellWord[] = [];
    let fed = stdinFed;
    for (const child of namedChildren(node)) {
      if (isRedirect(child)) {
        fed = this.redirects([child], level) || fed;
        words.push(...extraDestinations(child).map(shellWord));
        continue;
      }
      this.visit(child, false, level + 1); // substitutions and hidden text anywhere in the words
      if (child.type === 'command_name') {
        const nameNode = namedChildren(child)[0];
        if (nameNode !== undefined) words.push(shellWord(nameNode));
      } else if (child.field === 'argument') words.push(shellWord(child));
    }
    words.push(...trailing.map(shellWord));
    this.add(readSegment(words, {
      stdinFed: fed,
      readScript: (script, via) => this.script(script, via),
    }));
  }

  /** A script run by `sh -c` or `eval`: read with the same rules, one level deeper. */
  private script(script: string, via: string): Reading {
    if (this.depth + 1 > MAX_SCRIPT_DEPTH) return { signatures: [], never: `\`${via}\` scripts are nested too deeply to read` };
    const inner = read(script, this.parser, this.depth + 1);
    return inner.never === undefined ? inner : { signatures: inner.signatures, never: `in the script of \`${via}\`: ${inner.never}` };
  }

  /** `NAME=value` on its own, before a command or in `export`/`declare`: never when it changes what runs. */
  private assignment(node: ShellNode, level: number): void {
    const name = fieldChildren(node, 'name')[0]?.text ?? node.text.split('=')[0];
    const variable = name.replace(/\[.*$/, '').replace(/\+$/, '');
    if (changesWhatRuns(variable)) this.refuse(`\`${clip(node.text)}\` sets ${variable}, which changes which program runs or what it loads`);
    for (const child of fieldChildren(node, 'value')) this.visit(child, false, level + 1);
  }

  /** Checks redirections; says whether one of them feeds standard input. */
  private redirects(nodes: ShellNode[], level: number): boolean {
    let feedsStdin = false;
    for (const node of nodes) {
      if (node.type === 'heredoc_redirect') {
        this.refuse('a heredoc (`<<`) feeds text into the command that is not checked as part of it');
        continue;
      }
      for (const child of namedChildren(node)) this.visit(child, false, level + 1);
      if (node.type === 'herestring_redirect') {
        feedsStdin = true;
        continue;
      }
      const operator = node.children.find((child) => !child.named)?.type ?? '';
      const descriptor = node.children.find((child) => child.type === 'file_descriptor')?.text;
      const destination = fieldChildren(node, 'destination')[0] ?? namedChildren(node).find((child) => child.type !== 'file_descriptor');
      const target = destination === undefined ? undefined : literalValue(destination);
      if (operator === '<') {
        if (descriptor === undefined || descriptor === '0') feedsStdin = true;
        continue;
      }
      if ((operator === '>&' || operator === '<&') && target !== undefined && /^(\d+|-)$/.test(target)) continue; // 2>&1, >&-
      if (operator === '<&' || operator === '>&-' || operator === '<&-') continue; // duplicating or closing a descriptor
      if (target !== undefined && HARMLESS_TARGETS.has(target)) continue;
      this.refuse(`\`${clip(node.text)}\` writes output into ${target === undefined ? 'a file named by an expansion' : `the file ${quoteWords([target])}`}`);
    }
    return feedsStdin;
  }
}

/** Words the grammar read as more destinations of a file redirection; bash passes them to the command. */
function extraDestinations(node: ShellNode): ShellNode[] {
  return node.type === 'file_redirect' ? fieldChildren(node, 'destination').slice(1) : [];
}

function isRedirect(node: ShellNode): boolean {
  return node.type === 'file_redirect' || node.type === 'heredoc_redirect' || node.type === 'herestring_redirect';
}

/** A piece of the command for a message: one line, at most 60 characters. */
function clip(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
