// awk, read as awk reads it: its options by gawk's, mawk's and BSD awk's grammar (no option after the
// program text), and its program by the awk token grammar — strings, regular expressions, names, and
// operators. Deny by default: a call is allowed only to a builtin function that computes or matches
// (BUILTINS) or to a function the program defines; a pipe (`|`, `|&`), `getline`, any `@` directive
// (`@load`, `@include`, indirect calls) and output redirection of `print`/`printf` (`>`, `>>`) ask.
import { never, quoteWords, type Reading } from './reading';
import { readOptions, type OptionGrammar } from './scriptOptions';
import type { ShellWord } from './words';

const LOADS = { never: 'loads awk source or an extension library from a file, which these rules do not read' };
const WRITES = { never: 'writes a report into a file' };

/** gawk 5, mawk and BSD awk: the options whose effect is known; gawk stops reading options at the program. */
const AWK_OPTIONS: OptionGrammar = {
  short: {
    F: 'value', v: 'value', f: LOADS, e: 'value', E: LOADS, i: LOADS, l: LOADS, b: 'flag', c: 'flag', P: 'flag', r: 'flag', S: 'flag', V: 'flag',
    d: WRITES, o: WRITES, p: WRITES, D: { never: 'starts the debugger, which runs commands it reads' },
  },
  long: {
    'field-separator': 'value', assign: 'value', file: LOADS, source: 'value', exec: LOADS, include: LOADS, load: LOADS,
    'characters-as-bytes': 'flag', traditional: 'flag', posix: 'flag', 're-interval': 'flag', sandbox: 'flag', version: 'flag', help: 'flag',
    'dump-variables': WRITES, 'pretty-print': WRITES, profile: WRITES, debug: { never: 'starts the debugger, which runs commands it reads' },
  },
  permutes: false,
};

/** Builtin functions that compute, match or format, and close/fflush, which only end or flush a stream. */
const BUILTINS = new Set([
  'length', 'substr', 'index', 'split', 'sub', 'gsub', 'match', 'sprintf', 'tolower', 'toupper', 'int', 'sqrt', 'exp', 'log', 'sin', 'cos',
  'atan2', 'rand', 'srand', 'gensub', 'strftime', 'systime', 'mktime', 'asort', 'asorti', 'and', 'or', 'xor', 'compl', 'lshift', 'rshift',
  'strtonum', 'isarray', 'typeof', 'patsplit', 'close', 'fflush',
]);
/** Words of the language that may stand before `(`. */
const KEYWORDS = new Set(['if', 'while', 'for', 'do', 'in', 'return', 'print', 'printf', 'delete', 'exit', 'else']);
/** Tokens after which `/` starts a regular expression rather than a division. */
const OPERAND_END = /^(?:[A-Za-z_]\w*|\d[\d.eE]*|"|\)|\]|\$|\+\+|--)$/;
/** Where print may write without it counting as a write. */
const HARMLESS = new Set(['"/dev/stdout"', '"/dev/stderr"', '"-"']);

/** awk is its own signature when its options are understood and every part of its program is inert. */
export function readAwk(program: string, words: ShellWord[]): Reading {
  const self = [quoteWords([program])];
  const read = readOptions('awk', words, AWK_OPTIONS);
  if ('problem' in read) return never(read.problem, self);
  for (const option of read.options) {
    if ((option.name === '-v' || option.name === '--assign') && option.value === undefined) return never(`\`awk ${option.name}\` is given a value that comes from an expansion`, self);
  }
  const sources = read.options.filter((option) => option.name === '-e' || option.name === '--source');
  const programs = sources.length > 0 ? sources : read.operands.slice(0, 1).map((word) => ({ value: word.value, fixed: word.value !== undefined && !word.pattern, word }));
  if (programs.length === 0) return never('`awk` is given no program', self);
  for (const text of programs) {
    if (text.value === undefined || !text.fixed) return never(`its awk program comes from an expansion or pattern (${text.word.text})`, self);
    const problem = awkProgramProblem(text.value);
    if (problem !== undefined) return never(`its awk program ${problem}`, self);
  }
  return { signatures: self };
}

/** Why an awk program is not inert, or undefined when every part of it is. */
export function awkProgramProblem(text: string): string | undefined {
  const tokens = tokenize(text);
  if (typeof tokens === 'string') return tokens;
  const defined = new Set<string>();
  tokens.forEach((token, k) => {
    if ((token === 'function' || token === 'func') && /^[A-Za-z_]\w*$/.test(tokens[k + 1] ?? '')) defined.add(tokens[k + 1]);
  });
  let depth = 0;
  let printDepth: number | undefined;
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k];
    if (token === '(' || token === '[') depth++;
    else if (token === ')' || token === ']') depth--;
    else if (token === '|' || token === '|&') return `has a pipe \`${token}\`, which runs a command`;
    else if (token.startsWith('@')) return `has \`${token}\`, which loads code or calls a function named by a value`;
    else if (token === 'getline') return 'has `getline`, which reads a file or the output of a command';
    else if (token === 'print' || token === 'printf') printDepth = depth;
    else if (token === ';' || token === '\n' || token === '{' || token === '}') printDepth = undefined;
    else if ((token === '>' || token === '>>') && printDepth === depth) {
      const target = tokens[k + 1] ?? '';
      if (!HARMLESS.has(target) || !/^(?:;|\n|\}|)$/.test(tokens[k + 2] ?? '')) return `has \`print … ${token}\`, which writes into a file`;
    } else if (/^[A-Za-z_]\w*$/.test(token) && tokens[k + 1] === '(' && !BUILTINS.has(token) && !KEYWORDS.has(token) && !defined.has(token)) {
      return `calls \`${token}\`, which is not a function these rules know to be inert`;
    }
  }
  return undefined;
}

/** The program's tokens: strings and regular expressions as one token each, comments dropped. */
function tokenize(text: string): string[] | string {
  const tokens: string[] = [];
  let i = 0;
  const last = (): string => tokens[tokens.length - 1] ?? '';
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\' && text[i + 1] === '\n') i += 2;
    else if (ch === ' ' || ch === '\t' || ch === '\r') i++;
    else if (ch === '#') while (i < text.length && text[i] !== '\n') i++;
    else if (ch === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      if (i >= text.length) return 'has a string without its end';
      tokens.push(text.slice(start, ++i));
    } else if (ch === '/' && !OPERAND_END.test(last().startsWith('"') ? '"' : last())) {
      let inBracket = false;
      i++;
      while (i < text.length && (inBracket || text[i] !== '/')) {
        if (text[i] === '\n') return 'has a regular expression without its end';
        if (text[i] === '\\') i++;
        else if (text[i] === '[') inBracket = true;
        else if (text[i] === ']') inBracket = false;
        i++;
      }
      if (i >= text.length) return 'has a regular expression without its end';
      i++;
      tokens.push('/re/');
    } else if (/[A-Za-z_]/.test(ch)) {
      const start = i;
      while (i < text.length && /\w/.test(text[i])) i++;
      tokens.push(text.slice(start, i));
    } else if (ch === '@') {
      const start = i++;
      while (i < text.length && /\w/.test(text[i])) i++;
      tokens.push(text.slice(start, i));
    } else if (/\d|\./.test(ch) && /\d/.test(text[i + 1] ?? ch)) {
      const start = i;
      while (i < text.length && /[\w.]/.test(text[i])) i++;
      tokens.push(text.slice(start, i));
    } else {
      const two = text.slice(i, i + 2);
      const op = ['||', '&&', '|&', '>>', '>=', '<=', '==', '!=', '!~', '++', '--', '+=', '-=', '*=', '/=', '%=', '^=', '**'].includes(two) ? two : ch;
      tokens.push(op);
      i += op.length;
    }
  }
  return tokens;
}
