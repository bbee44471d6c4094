// A rough shell splitter for danger flags: it only needs to find where each simple command starts
// (after `|`, `&&`, `;`, `$(`, …) so that `sudo` or `rm -rf` at a command position is told apart from
// the same word inside an argument. It never executes or expands anything, and errs on the side of
// splitting more, since a flag on a look-alike is cheaper than a missed one.

/** `posix` honours backslash escapes; `windows` (cmd, PowerShell) keeps backslashes, as in `C:\tools`. */
export type ShellDialect = 'posix' | 'windows';

/** The simple commands of a command line, and the text of command substitutions found inside double quotes. */
export interface ShellSplit {
  commands: string[][];
  substitutions: string[];
}

const OPERATOR_CHARS = new Set([';', '&', '|', '(', ')', '\n', '\r']);
const BLANK = /[ \t\f\v]/;

/** Splits `text` into simple commands (arrays of unquoted words); operators, redirections and comments are dropped. */
export function splitShell(text: string, dialect: ShellDialect): ShellSplit {
  const commands: string[][] = [];
  const substitutions: string[] = [];
  let words: string[] = [];
  let word: string | undefined;
  let skipNextWord = false;

  const endWord = (): void => {
    if (word === undefined) return;
    if (skipNextWord) skipNextWord = false;
    else words.push(word);
    word = undefined;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  const append = (chars: string): void => {
    word = (word ?? '') + chars;
  };

  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    const next = text[i + 1];
    if (BLANK.test(ch)) {
      endWord();
      i++;
    } else if (ch === '#' && word === undefined) {
      // A comment runs to the end of the line (sh and PowerShell alike).
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '\\' && dialect === 'posix') {
      if (next === '\n') i += 2; // line continuation
      else {
        append(next ?? '');
        i += 2;
      }
    } else if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      const stop = end < 0 ? text.length : end;
      append(text.slice(i + 1, stop));
      i = stop + 1;
    } else if (ch === '"') {
      i = readDoubleQuoted(text, i + 1, dialect, append, substitutions);
    } else if (ch === '`' && dialect === 'windows') {
      // PowerShell's escape character.
      append(next ?? '');
      i += 2;
    } else if (ch === '`' || (ch === '$' && next === '(') || ((ch === '<' || ch === '>') && next === '(')) {
      // Command and process substitutions start a command of their own.
      endCommand();
      i += ch === '`' ? 1 : 2;
    } else if (ch === '>' || ch === '<') {
      const redirection = skipRedirection(text, i);
      i = redirection.end;
      if (word !== undefined && /^\d+$/.test(word)) word = undefined; // the `2` of `2>`
      endWord();
      // `> file` names its target in the next word; `>&2` already carried it.
      skipNextWord = !redirection.toDescriptor;
    } else if (OPERATOR_CHARS.has(ch)) {
      endCommand();
      i++;
    } else {
      append(ch);
      i++;
    }
  }
  endCommand();
  return { commands, substitutions };
}

function readDoubleQuoted(text: string, start: number, dialect: ShellDialect, append: (chars: string) => void, substitutions: string[]): number {
  let i = start;
  while (i < text.length && text[i] !== '"') {
    const ch = text[i];
    if (ch === '\\' && dialect === 'posix' && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1])) {
      append(text[i + 1]);
      i += 2;
    } else if (ch === '`' && dialect === 'windows') {
      append(text[i + 1] ?? '');
      i += 2;
    } else if (ch === '$' && text[i + 1] === '(') {
      const end = matchingParen(text, i + 1);
      const inner = text.slice(i + 2, end < 0 ? text.length : end);
      substitutions.push(inner);
      append(`$(${inner})`);
      i = end < 0 ? text.length : end + 1;
    } else if (ch === '`' && dialect === 'posix') {
      const end = text.indexOf('`', i + 1);
      const inner = text.slice(i + 1, end < 0 ? text.length : end);
      substitutions.push(inner);
      append(`\`${inner}\``);
      i = end < 0 ? text.length : end + 1;
    } else {
      append(ch);
      i++;
    }
  }
  return i + 1;
}

/** Index of the `)` that closes the `(` at `open`, or -1. Quotes inside are not tracked: good enough for a scan. */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Skips `>`, `>>`, `>&2`, `<&-` and the like; says where the operator ends and whether it named a descriptor. */
function skipRedirection(text: string, start: number): { end: number; toDescriptor: boolean } {
  let i = start + 1;
  if (text[i] === text[start] || text[i] === '|') i++;
  if (text[i] !== '&') return { end: i, toDescriptor: false };
  i++;
  while (i < text.length && /[\d-]/.test(text[i])) i++;
  return { end: i, toDescriptor: true };
}
