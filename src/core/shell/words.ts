// What a shell word means when it needs no expansion: the value bash would pass to the program. Words
// with an expansion (`$HOME`, `${x}`, `$(…)`) have no fixed value; the rules decide what that means
// where it matters (a program name, a subcommand) and ignore it where it does not (a file argument).
import type { ShellNode } from './syntax';

/** A word of a simple command: its source text and, when it needs no expansion, its value. */
export interface ShellWord {
  text: string;
  value?: string;
  /** Whether it has an unquoted glob or brace pattern, which bash would expand into other words. */
  pattern: boolean;
  /** For a word with an expansion, the fixed text before it (`--out=` of `--out=$F`). */
  prefix?: string;
}

/** The word `node` makes. */
export function shellWord(node: ShellNode): ShellWord {
  const value = literalValue(node);
  if (value !== undefined) return { text: node.text, value, pattern: hasPattern(node) };
  const word: ShellWord = { text: node.text, pattern: false };
  if (node.type === 'concatenation') {
    let prefix = '';
    for (const child of node.children) {
      const part = literalValue(child);
      if (part === undefined) break;
      prefix += part;
    }
    if (prefix !== '') word.prefix = prefix;
  }
  return word;
}

/** The value of a word without expansions, or undefined when bash would expand something in it. */
export function literalValue(node: ShellNode): string | undefined {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'variable_name':
    case 'extglob_pattern':
      return unescapeUnquoted(node.text);
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'ansi_c_string':
      // `$'…'` with escapes decodes in ways not worth repeating here; plain text inside is its value.
      return node.text.includes('\\') ? undefined : node.text.slice(2, -1);
    case 'string': {
      let value = '';
      for (const child of node.children) {
        if (!child.named) continue; // the quotes
        if (child.type !== 'string_content') return undefined;
        value += unescapeDoubleQuoted(child.text);
      }
      return value;
    }
    case 'concatenation': {
      let value = '';
      for (const child of node.children) {
        const part = literalValue(child);
        if (part === undefined) return undefined;
        value += part;
      }
      return value;
    }
    default:
      return undefined;
  }
}

/** Unquoted text: a backslash keeps the next character, a backslash-newline disappears. */
function unescapeUnquoted(text: string): string {
  return text.replace(/\\(\n|.)/gs, (_, ch: string) => (ch === '\n' ? '' : ch));
}

/** Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\` and a newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch));
}

const BRACES = /\{[^}]*(?:,|\.\.)[^}]*\}/;

/** Whether the unquoted text of a word holds a `{a,b}` or `{1..3}` brace expansion, which bash turns into several words. */
export function hasBraceExpansion(node: ShellNode): boolean {
  if (node.type === 'brace_expression') return true;
  if (node.type === 'concatenation') {
    // The grammar splits `{-o,F}` into `{`, `-o,F` and `}`; bash expands the braces around quoted parts too.
    const joined = node.children.map((child) => (child.type === 'word' ? child.text.replace(/\\./gs, '') : 'x')).join('');
    return BRACES.test(joined);
  }
  return node.type === 'word' && BRACES.test(node.text.replace(/\\./gs, ''));
}

/** Whether an unquoted part of the word holds `*`, `?`, `[` or a `{a,b}` brace list. */
function hasPattern(node: ShellNode): boolean {
  if (node.type === 'concatenation') return node.children.some(hasPattern) || hasBraceExpansion(node);
  if (node.type !== 'word' && node.type !== 'extglob_pattern') return false;
  const bare = node.text.replace(/\\./gs, '');
  return /[*?[]/.test(bare) || BRACES.test(bare);
}

/**
 * Whether unquoted or double-quoted text still holds `$(`, a backtick or `<(`/`>(` outside an escape: the
 * grammar read it as plain text where bash would run a command, so the text cannot be trusted.
 */
export function hidesSubstitution(node: ShellNode): boolean {
  if (node.type !== 'word' && node.type !== 'string_content') return false;
  return /(?:^|[^\\])(?:\\\\)*(?:\$\(|`|[<>]\()/.test(node.text);
}
