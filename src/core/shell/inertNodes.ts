// Which nodes of a bash syntax tree are understood as inert: text bash passes on as it stands, the plain
// structure of lists, pipelines and groups around simple commands, and expansions that substitute a
// variable's value without evaluating it. This is a whitelist over the grammar's node types: a kind not
// listed here — arithmetic, indirect or transforming expansions, test expressions, function
// definitions, anything the grammar may add — is refused, with a reason that names it.
import type { ShellNode } from './syntax';
import { hasBraceExpansion } from './words';

/** Containers whose meaning is their children's: walking into them is enough. */
const STRUCTURE = new Set([
  'program', 'list', 'negated_command', 'do_group', 'if_statement', 'elif_clause', 'else_clause', 'while_statement',
  'case_statement', 'case_item', 'command_name',
]);

/** Words and parts of words that bash passes on without evaluating anything. */
const LITERALS = new Set([
  'word', 'number', 'raw_string', 'string_content', 'concatenation', 'ansi_c_string', 'variable_name', 'special_variable_name',
  'file_descriptor', 'extglob_pattern',
]);

/** `$NAME`, `$1`, `$@`, `$?`…: the value of a variable, substituted as it is. */
const PLAIN_SIMPLE_EXPANSION = /^\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!_-])$/;
/** `${NAME}`, `${1}`, `${@}`: the same, braced; anything more inside the braces transforms or indirects. */
const PLAIN_BRACED_EXPANSION = /^\$\{(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!_-])\}$/;

/** Why a heredoc asks: the reason is shared by every place that meets one. */
export const HEREDOC = 'a heredoc (`<<EOF`) feeds text into the standard input of the command, which these rules do not read as part of it';
/** Why a here-string asks. */
export const HERESTRING = 'a here-string (`<<<`) feeds text into the standard input of the command, which these rules do not read as part of it';

/**
 * Why `node`, by its own kind, is not understood as inert; undefined when it is (its children still need
 * reading). Commands, redirections, assignments and substitutions are read by the caller before this.
 */
export function notInert(node: ShellNode): string | undefined {
  const { type, text } = node;
  if (type === 'concatenation' && holdsTranslatedString(node)) return construct(node, 'a word with a translated string `$"…"`');
  // `{-i,x}` becomes the words `-i` and `x`: options nobody typed as such, so a signature cannot cover them.
  if (hasBraceExpansion(node)) return `\`${clip(text)}\` is a brace expansion, which bash turns into several words (an option among them, \`{-i,x}\` is \`-i x\`) that the command never showed as such`;
  if (STRUCTURE.has(type) || LITERALS.has(type)) return undefined;
  switch (type) {
    case 'subshell':
      return text.startsWith('(') ? undefined : construct(node, 'a group');
    case 'compound_statement':
      // `((x))` is read by the grammar as a group around a variable; it is arithmetic.
      return text.startsWith('{') ? undefined : `\`${clip(text)}\` is an arithmetic command \`((…))\`, which evaluates variables' values as expressions and can run commands hidden in them`;
    case 'for_statement':
      // `select` shares the grammar's node with `for`; it reads its choice from standard input.
      return text.startsWith('for') ? undefined : construct(node, 'a `select` loop');
    case 'string':
      // `$"…"` is a translated string: its text comes from a message catalog.
      return text.startsWith('"') ? undefined : construct(node, 'a translated string `$"…"`');
    case 'simple_expansion':
      return PLAIN_SIMPLE_EXPANSION.test(text) ? undefined : construct(node, 'an expansion');
    case 'expansion':
      return PLAIN_BRACED_EXPANSION.test(text) ? undefined : expansionProblem(text);
    case 'arithmetic_expansion':
      return `\`${clip(text)}\` is an arithmetic expansion, which evaluates variables' values as expressions and can run commands hidden in them (\`a[$(…)]\`)`;
    case 'c_style_for_statement':
      return `\`${clip(text)}\` is a C-style \`for ((…))\` loop, whose expressions are arithmetic and can run commands hidden in variables`;
    case 'test_command':
      return text.startsWith('[[')
        ? `\`${clip(text)}\` is a test expression \`[[ … ]]\`, whose comparisons evaluate variables' values as arithmetic and can run commands hidden in them`
        : `\`${clip(text)}\` is a test expression \`[ … ]\`, a form these rules do not read`;
    case 'function_definition':
      return `\`${clip(text)}\` defines a function, which can stand in for any command name after it`;
    case 'subscript':
      return `\`${clip(text)}\` has an array subscript, which bash evaluates as arithmetic and which can run commands hidden in variables`;
    case 'heredoc_body':
    case 'heredoc_redirect':
      return HEREDOC;
    case 'herestring_redirect':
      return HERESTRING;
    default:
      return construct(node, `the shell construct \`${type}\``);
  }
}

/**
 * Whether a command or word holds a translated string `$"…"`, whose text comes from a message catalog:
 * the grammar keeps its `$` as a bare token beside the string.
 */
export function holdsTranslatedString(node: ShellNode): boolean {
  return node.children.some((child) => !child.named && child.type === '$');
}

/** What a `${…}` that is more than `${NAME}` does, said for a person. */
function expansionProblem(text: string): string {
  const inner = text.slice(2, -1);
  const what = inner.startsWith('!') ? 'an indirect expansion `${!…}`, which takes a variable name from a value'
    : /@[A-Za-z]$/.test(inner) ? 'a transforming expansion `${…@…}`, which can evaluate a value as a prompt string and run commands in it'
    : /^[#]/.test(inner) ? 'a length expansion `${#…}`'
    : /\[/.test(inner) ? 'an array element `${a[…]}`, whose index is arithmetic and can run commands hidden in variables'
    : /^[A-Za-z_0-9]+:[^-=?+]/.test(inner) ? 'a substring expansion `${v:…}`, whose offset and length are arithmetic and can run commands hidden in variables'
    : /^[A-Za-z_0-9@*]+:?[-=?+]/.test(inner) ? 'a default-value expansion `${v:-…}`, which can assign or evaluate its word'
    : 'a transforming expansion (pattern removal or replacement, case change)';
  return `\`${clip(text)}\` is ${what}, not a plain \`\${NAME}\``;
}

function construct(node: ShellNode, what: string): string {
  return `\`${clip(node.text)}\` is ${what}, which these rules do not know to be inert`;
}

/** A piece of the command for a message: one line, at most 60 characters. */
export function clip(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
