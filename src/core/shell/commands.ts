// The simple commands a command line runs, read with the bash grammar, for readers that judge each
// program on its own (trust's danger flags): where each command starts, and the words it passes. Text
// the grammar cannot fully read still yields the commands it recovered, and the words of the parts it
// could not place, since a flag on a look-alike is cheaper than a missed one.
import { namedChildren, type ShellNode, type ShellParser } from './syntax';
import { literalValue } from './words';

/** `posix` honours backslash escapes; `windows` (cmd, PowerShell) keeps backslashes, as in `C:\tools`. */
export type ShellDialect = 'posix' | 'windows';

/** The simple commands of a command line, and the text of its command and process substitutions. */
export interface ShellSplit {
  /** Each command's words, assignments in front first (`FOO=1`), its redirections left out. */
  commands: string[][];
  /** The scripts inside `$(…)`, backticks and `<(…)`, whose own commands are not in `commands`. */
  substitutions: string[];
}

/** Reads `text` into the simple commands it runs; never throws, whatever the text. */
export function simpleCommands(text: string, dialect: ShellDialect, parser: ShellParser): ShellSplit {
  // Backslashes are path separators on Windows, so they are read as themselves.
  const source = dialect === 'windows' ? text.replace(/\\/g, '\\\\') : text;
  const parsed = parser.parse(source);
  const split: ShellSplit = { commands: [], substitutions: [] };
  if (parsed.root === undefined) return split;
  const stack: ShellNode[] = [parsed.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'command_substitution' || node.type === 'process_substitution') {
      split.substitutions.push(substitutionScript(node.text, dialect));
      continue;
    }
    if (node.type === 'command') split.commands.push(commandWords(node));
    else if (node.type === 'ERROR') {
      const words = namedChildren(node).filter((child) => isWordNode(child)).map(looseValue);
      if (words.length > 0) split.commands.push(words);
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return split;
}

function commandWords(node: ShellNode): string[] {
  const words: string[] = [];
  for (const child of namedChildren(node)) {
    if (child.type === 'variable_assignment') words.push(looseValue(child));
    else if (child.type === 'command_name') words.push(...namedChildren(child).map(looseValue));
    else if (child.field === 'argument') words.push(looseValue(child));
  }
  return words;
}

/** The script of `$(…)`, `` `…` ``, `<(…)` or `>(…)`, as it was written. */
function substitutionScript(text: string, dialect: ShellDialect): string {
  const inner = text.startsWith('`') ? text.slice(1, -1) : text.slice(2, -1);
  return dialect === 'windows' ? inner.replace(/\\\\/g, '\\') : inner;
}

function isWordNode(node: ShellNode): boolean {
  return ['word', 'string', 'raw_string', 'concatenation', 'number', 'simple_expansion', 'expansion'].includes(node.type);
}

/** The word as bash would pass it where it needs no expansion; expansions are kept as written, quotes dropped. */
function looseValue(node: ShellNode): string {
  const value = literalValue(node);
  if (value !== undefined) return value;
  switch (node.type) {
    case 'string':
      return node.children.filter((child) => child.named).map((child) => (child.type === 'string_content' ? child.text.replace(/\\([$`"\\])/g, '$1') : child.text)).join('');
    case 'concatenation':
    case 'variable_assignment':
      return node.children.map(looseValue).join('');
    default:
      return node.text;
  }
}
