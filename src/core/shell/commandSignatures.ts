// Command signatures: what "Always allow" on a shell-like tool is scoped to. A command is parsed with a
// real bash grammar, and it can be auto-approved only when every node of its tree is of a kind the
// rules understand as inert (core/shell/inertNodes.ts): any other node — arithmetic, an indirect or
// transforming expansion, a test expression, a substitution, a heredoc, a write into a file, text that
// is not valid syntax — means "ask", with a reason naming it. Every segment (each simple command of a
// list, pipeline, group or loop) gets a signature — the program plus the words that select what it does
// (`python -m pytest`), or its exact words for a program the tables do not know — and a segment after
// `cd dir` is signed with that folder (`cd dir && git status`), since a folder brings its own
// configuration. A command is auto-approved only when every one of its signatures is allowed.
import { clip, HEREDOC, HERESTRING, holdsTranslatedString, notInert } from './inertNodes';
import { isInertVariable, isShellLocalName, variableProblem } from './inertVariables';
import { fieldChildren, namedChildren, type ShellNode, type ShellParser } from './syntax';
import { hidesSubstitution, literalValue, shellWord, type ShellWord } from './words';
import { HARMLESS_TARGETS, quoteWords, type Reading } from './reading';
import { readSegment } from './segmentRules';
import { inputProblem, joinsLines } from './shellText';
import type { InputWords } from './inputWords';

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

/** Where the command runs: a `cd` to an absolute path inside `workspace` counts as inside it. */
export interface SignatureOptions {
  /** The workspace folder the command runs in (absolute, `/`-separated). */
  workspace?: string;
}

/** The signatures of a command, and the reason it can never be auto-approved when it cannot. */
export function signaturesOf(command: string, parser: ShellParser, options: SignatureOptions = {}): Reading {
  return read(command, parser, 0, options, false);
}

/** Whether every signature of `command` is in `allowed`, and nothing in it rules auto-approval out. */
export function isAutoApproved(command: string, allowed: Iterable<string>, parser: ShellParser, options: SignatureOptions = {}): ApprovalCheck {
  const reading = signaturesOf(command, parser, options);
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
export function alwaysAllowRules(commands: Iterable<string>, parser: ShellParser, options: SignatureOptions = {}): string[] {
  const rules: string[] = [];
  for (const command of commands) {
    for (const signature of signaturesOf(command, parser, options).signatures) if (!rules.includes(signature)) rules.push(signature);
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

function read(command: string, parser: ShellParser, depth: number, options: SignatureOptions, sharedShell: boolean): Reading {
  if (command.trim() === '') return { signatures: [], never: 'the command is empty' };
  if (command.length > MAX_COMMAND_LENGTH) return { signatures: [], never: `the command is longer than ${MAX_COMMAND_LENGTH} characters` };
  if (command.includes('\0')) return { signatures: [], never: 'the command holds a NUL character' };
  // Bash joins a line ending in a backslash to the next before it splits words (`-\⏎o` is `-o`), which
  // the syntax tree does not show: such a command is never read as the words the tree has.
  // A form feed, vertical tab or carriage return separates words for the grammar but not for bash.
  if (/[\f\v\r]/.test(command)) return { signatures: [], never: 'it holds a form feed, vertical tab or carriage return, which the grammar and bash split into words differently' };
  if (joinsLines(command)) return { signatures: [], never: 'a backslash at the end of a line joins it to the next, which can spell words the command does not show' };
  const parsed = parser.parse(command);
  if (!parsed.ok) return { signatures: [], never: `it cannot be read as a shell command: ${parsed.reason}` };
  const walker = new Walker(parser, depth, options, sharedShell);
  walker.visit(parsed.root, false, 0);
  return walker.result();
}

/** Where the segments being read run, relative to the workspace: a folder, or a reason it is not known. */
type Folder = { path: string } | { lost: string };

/** Node kinds a `cd` may stand in and still be followed: each runs its parts in order, once. */
const FOLLOWED = new Set(['program', 'subshell', 'compound_statement', 'redirected_statement']);

/** Walks one syntax tree, collecting every segment's signatures and the first reason for "never". */
class Walker {
  private readonly signatures: string[] = [];
  private never: string | undefined;
  private folder: Folder = { path: '' };
  private readonly ancestors: ShellNode[] = [];
  /** Variables `read` has set from input: their values are words nobody saw. */
  private readonly readVariables = new Set<string>();

  constructor(
    private readonly parser: ShellParser,
    private readonly depth: number,
    private readonly options: SignatureOptions,
    /** An `eval` script runs in the shell that reads it, so a `cd` in it moves that shell. */
    private readonly sharedShell: boolean,
  ) {}

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
    this.ancestors.push(node);
    try {
      this.visitNode(node, stdinFed, level);
    } finally {
      this.ancestors.pop();
    }
  }

  private visitNode(node: ShellNode, stdinFed: boolean, level: number): void {
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
        // Every part of a pipeline runs in a subshell of its own.
        namedChildren(node).forEach((child, index) => this.inSubshell(() => this.visit(child, index > 0 || stdinFed, level + 1)));
        return;
      case 'subshell':
        if (notInert(node) === undefined) return this.inSubshell(() => this.children(node, stdinFed, level));
        break;
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
      case 'declaration_command':
        return this.declaration(node, level);
      case 'for_statement': {
        const variable = fieldChildren(node, 'variable')[0]?.text ?? '';
        if (!isShellLocalName(variable)) return this.refuse(`\`for ${variable} in …\` ${variableProblem(variable, undefined) ?? `sets ${variable}`}`);
        break;
      }
      case 'comment':
        return;
      case 'ERROR':
        return this.refuse(`it is not valid shell syntax near \`${clip(node.text)}\``);
      default:
        break;
    }
    const refusal = notInert(node);
    if (refusal !== undefined) return this.refuse(refusal);
    if (hidesSubstitution(node)) return this.refuse(`\`${clip(node.text)}\` holds text that bash may run as a command but the parser read as plain text`);
    this.children(node, stdinFed, level);
  }

  private children(node: ShellNode, stdinFed: boolean, level: number): void {
    for (const child of namedChildren(node)) this.visit(child, stdinFed, level + 1);
  }

  /** Runs `body` with the folder restored after it, as a subshell's `cd` does not move its parent. */
  private inSubshell(body: () => void): void {
    const saved = this.folder;
    body();
    this.folder = saved;
  }

  /** One simple command: prefix assignments, redirections, then its words' signatures. */
  private segment(node: ShellNode, stdinFed: boolean, level: number, trailing: ShellNode[] = []): void {
    if (holdsTranslatedString(node)) return this.refuse(`\`${clip(node.text)}\` holds a translated string \`$"…"\`, whose text comes from a message catalog`);
    const words: ShellWord[] = [];
    let fed = stdinFed;
    for (const child of namedChildren(node)) {
      if (isRedirect(child)) {
        fed = this.redirects([child], level) || fed;
        words.push(...extraDestinations(child).map(shellWord));
        continue;
      }
      if (child.type === 'variable_assignment') {
        this.assignment(child, level + 1, { command: commandName(node) });
        continue;
      }
      this.visit(child, false, level + 1); // substitutions, expansions and hidden text anywhere in the words
      if (child.type === 'command_name') {
        const nameNode = namedChildren(child)[0];
        if (nameNode !== undefined) words.push(shellWord(nameNode));
      } else if (child.field === 'argument') words.push(shellWord(child));
    }
    words.push(...trailing.map(shellWord));
    if (words[0]?.value === 'cd') {
      this.changeFolder(words.slice(1));
      return this.add({ signatures: ['cd'] });
    }
    if (words.length === 0) return;
    const inputWords = this.readInput(words);
    const reading = readSegment(words, { stdinFed: fed, readScript: (script, via) => this.script(script, via), inputWords });
    if ('lost' in this.folder) return this.add({ signatures: reading.signatures, never: this.folder.lost });
    const prefix = this.folder.path === '' ? '' : `cd ${quoteWords([this.folder.path])} && `;
    this.add({ ...reading, signatures: reading.signatures.map((signature) => `${prefix}${signature}`) });
  }

  /**
   * Records the variables a `read` sets, and says which words of a later command hold their values
   * (`while read -r f; do rg x "$f"; done`): a line of the input can be any option of the program.
   */
  private readInput(words: ShellWord[]): InputWords | undefined {
    if (words[0]?.value === 'read') {
      const names = words.slice(1).flatMap((word) => (word.value !== undefined && /^[A-Za-z_]\w*$/.test(word.value) ? [word.value] : []));
      for (const name of names.length > 0 ? names : ['REPLY']) this.readVariables.add(name);
      return undefined;
    }
    const used = [...this.readVariables].filter((name) => words.some((word) => word.value === undefined && refersTo(word.text, name)));
    if (used.length === 0) return undefined;
    const read = new Set(used);
    return {
      via: `read ${used[0]}`,
      atEnd: false,
      isInput: (word) => word.value === undefined && used.some((name) => refersTo(word.text, name)),
      isWhole: (word) => read.has(/^"?\$\{?([A-Za-z_]\w*)\}?"?$/.exec(word.text)?.[1] ?? ''),
    };
  }

  /**
   * `cd DIR`: the segments after it run in DIR, which joins their signatures. Only a literal relative
   * path that stays inside the workspace (no `..`, no expansion), in a list that runs each part once
   * and in order, is followed; after any other `cd`, nothing is auto-approved.
   */
  private changeFolder(args: ShellWord[]): void {
    if (this.sharedShell) return this.lose('a `cd` inside an `eval` script moves the shell that runs the commands after it');
    const where = this.ancestors.slice(0, -1).find((node) => !FOLLOWED.has(node.type) && !(node.type === 'list' && !node.children.some((child) => child.type === '||')));
    if (where !== undefined) return this.lose(`a \`cd\` inside \`${clip(where.text)}\` may or may not run, so the folder of the commands after it is not known`);
    const operands = args[0]?.value === '--' ? args.slice(1) : args;
    const shown = quoteWords(['cd', ...operands.map((word) => word.value ?? word.text)]);
    if (operands.length !== 1) return this.lose(`\`${shown}\` does not name one folder, so the commands after it run outside the workspace`);
    const target = operands[0];
    if (target.value === undefined || target.pattern) return this.lose(`\`cd ${target.text}\` goes to a folder named by an expansion or pattern`);
    let path = target.value;
    const workspace = this.options.workspace?.replace(/\/+$/, '');
    if (workspace !== undefined && workspace !== '' && (path === workspace || path.startsWith(`${workspace}/`))) path = path.slice(workspace.length + 1);
    if (/^[-/~]/.test(path) || path === '') return this.lose(`\`${shown}\` goes to a folder outside the workspace, so what runs after it is not what was allowed`);
    const parts = path.split('/').filter((part) => part !== '' && part !== '.');
    if (parts.includes('..')) return this.lose(`\`${shown}\` can leave the workspace (\`..\`), so what runs after it is not what was allowed`);
    if ('path' in this.folder) this.folder = { path: [this.folder.path, ...parts].filter((part) => part !== '').join('/') };
  }

  private lose(reason: string): void {
    if ('path' in this.folder) this.folder = { lost: reason };
  }

  /** A script run by `sh -c` or `eval`: read with the same rules, one level deeper. */
  private script(script: string, via: string): Reading {
    if (this.depth + 1 > MAX_SCRIPT_DEPTH) return { signatures: [], never: `\`${via}\` scripts are nested too deeply to read` };
    const shared = via === 'eval';
    const inner = read(script, this.parser, this.depth + 1, this.options, shared);
    if (shared && inner.signatures.includes('cd')) this.lose('a `cd` inside an `eval` script moves the shell that runs the commands after it');
    return inner.never === undefined ? inner : { signatures: inner.signatures, never: `in the script of \`${via}\`: ${inner.never}` };
  }

  /**
   * `NAME=value`: before a command (`how` names it) it sets that command's environment, so only an inert
   * variable with a value it is known to take may stand there; in `export` it sets the environment of
   * every later command, with the same rule. On its own it sets a shell variable, which later commands
   * inherit only when it is exported: a lower-case name (see `isShellLocalName`) stays in the shell, any
   * other name may already be exported, so it is read as an environment change too.
   */
  private assignment(node: ShellNode, level: number, how: { command: string } | 'export' | 'alone' = 'alone'): void {
    const nameNode = fieldChildren(node, 'name')[0];
    if (nameNode !== undefined && nameNode.type !== 'variable_name') {
      const refusal = notInert(nameNode);
      return this.refuse(refusal ?? `\`${clip(node.text)}\` assigns to something other than a plain variable`);
    }
    const variable = (nameNode?.text ?? node.text.split('=')[0]).replace(/\+$/, '');
    const valueNode = fieldChildren(node, 'value')[0];
    const value = valueNode === undefined ? '' : literalValue(valueNode);
    for (const child of fieldChildren(node, 'value')) this.visit(child, false, level + 1);
    if (how === 'alone' && isShellLocalName(variable)) return;
    // `IFS=, read -r a b`: read is a builtin, and IFS only says how it splits the line it reads.
    if (typeof how === 'object' && how.command === 'read' && variable === 'IFS' && value !== undefined && /^[^\w$`\\]*$/.test(value)) return;
    const problem = variableProblem(variable, value);
    if (problem !== undefined) this.refuse(`\`${clip(node.text)}\` ${problem}`);
  }

  /** `export NAME=value` and `export NAME`; `declare`, `local`, `readonly` and options give variables attributes that change how values are read. */
  private declaration(node: ShellNode, level: number): void {
    const keyword = node.children[0]?.text ?? '';
    const rest = namedChildren(node);
    if (keyword !== 'export' || rest.some((child) => child.type !== 'variable_assignment' && child.type !== 'variable_name')) {
      return this.refuse(`\`${clip(node.text)}\` declares variables with \`${keyword}\` or its options, which can make later values evaluated as arithmetic or names of other variables`);
    }
    for (const child of rest) {
      if (child.type === 'variable_assignment') this.assignment(child, level + 1, 'export');
      else if (!isInertVariable(child.text)) {
        this.refuse(`\`${clip(node.text)}\` puts ${child.text} into the environment of the commands after it, and it is not one of the variables known to change nothing about what runs`);
      }
    }
  }

  /** Checks redirections; says whether one of them feeds standard input. */
  private redirects(nodes: ShellNode[], level: number): boolean {
    let feedsStdin = false;
    for (const node of nodes) {
      if (node.type === 'heredoc_redirect') {
        this.refuse(HEREDOC);
        continue;
      }
      if (node.type === 'herestring_redirect') {
        this.refuse(HERESTRING);
        continue;
      }
      for (const child of namedChildren(node)) this.visit(child, false, level + 1);
      const operator = node.children.find((child) => !child.named)?.type ?? '';
      const descriptor = node.children.find((child) => child.type === 'file_descriptor')?.text;
      const destination = fieldChildren(node, 'destination')[0] ?? namedChildren(node).find((child) => child.type !== 'file_descriptor');
      const target = destination === undefined ? undefined : literalValue(destination);
      if (operator === '<') {
        const problem = inputProblem(target);
        if (problem !== undefined) {
          this.refuse(`\`${clip(node.text)}\` ${problem}`);
          continue;
        }
        if (descriptor === undefined || descriptor === '0') feedsStdin = true;
        continue;
      }
      // Only the standard descriptors may be duplicated: another one may have been opened on a socket
      // (`exec 3</dev/tcp/host/port; git status >&3`), so writing into it sends the output away.
      if ((operator === '>&' || operator === '<&') && target !== undefined && /^([012]|-)$/.test(target)) continue; // 2>&1, >&-
      if (operator === '>&-' || operator === '<&-') continue; // closing a descriptor
      if (operator === '<&' || (operator === '>&' && (target === undefined || /^\d+$/.test(target)))) {
        this.refuse(`\`${clip(node.text)}\` duplicates ${target === undefined ? 'a descriptor named by an expansion' : `the descriptor ${target}`}, which may be a file or a socket opened elsewhere`);
        continue;
      }
      if (target !== undefined && HARMLESS_TARGETS.has(target)) continue;
      this.refuse(`\`${clip(node.text)}\` writes output into ${target === undefined ? 'a file named by an expansion' : `the file ${quoteWords([target])}`}`);
    }
    return feedsStdin;
  }
}

/** Whether shell text expands the variable `name` (`$name`, `${name}`). */
function refersTo(text: string, name: string): boolean {
  return new RegExp(`\\$(?:${name}(?!\\w)|\\{${name}\\})`).test(text);
}

/** The literal name of the program a simple command runs, or '' when it has none or it is an expansion. */
function commandName(node: ShellNode): string {
  const name = fieldChildren(node, 'name')[0] ?? namedChildren(node).find((child) => child.type === 'command_name');
  const word = name === undefined ? undefined : namedChildren(name)[0];
  return word === undefined ? '' : literalValue(word) ?? '';
}

/** Words the grammar read as more destinations of a file redirection; bash passes them to the command. */
function extraDestinations(node: ShellNode): ShellNode[] {
  return node.type === 'file_redirect' ? fieldChildren(node, 'destination').slice(1) : [];
}

function isRedirect(node: ShellNode): boolean {
  return node.type === 'file_redirect' || node.type === 'heredoc_redirect' || node.type === 'herestring_redirect';
}
