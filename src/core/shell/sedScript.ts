// sed, read as sed reads it: its options by GNU sed's grammar (clusters, attached values, long options in
// any abbreviation, options after operands), and its script by the sed command grammar — addresses,
// `!`, blocks, and one command at a time. Deny by default: the commands listed in INERT are those that
// only select, edit the pattern and hold spaces, branch or print; any other command (`e`, `w`, `W`, `r`,
// `R`, and whatever a sed adds later), an `s` flag that runs or writes (`e`, `w`), `-i` and `-f` ask.
import { never, quoteWords, type Reading } from './reading';
import { readOptions, type OptionGrammar } from './scriptOptions';
import type { ShellWord } from './words';

const IN_PLACE = { never: 'edits files in place' };
const FROM_FILE = { never: 'reads its script from a file, which these rules do not read' };

/** GNU sed 4.9 and BSD/macOS sed: every option, by how it takes its value. */
const SED_OPTIONS: OptionGrammar = {
  short: { n: 'flag', e: 'value', f: FROM_FILE, E: 'flag', r: 'flag', s: 'flag', u: 'flag', z: 'flag', l: 'value', b: 'flag', i: IN_PLACE, I: IN_PLACE, a: 'flag' },
  long: {
    quiet: 'flag', silent: 'flag', expression: 'value', file: FROM_FILE, 'in-place': IN_PLACE, 'line-length': 'value', 'null-data': 'flag',
    'zero-terminated': 'flag', 'regexp-extended': 'flag', separate: 'flag', unbuffered: 'flag', binary: 'flag', posix: 'flag', debug: 'flag',
    sandbox: 'flag', 'follow-symlinks': 'flag', help: 'flag', version: 'flag',
  },
  permutes: true,
};

/** Commands that take no argument and only select, edit the pattern or hold space, or print. */
const INERT = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
/** Commands that read a label, an exit code or a line length to the end of the command. */
const WITH_WORD = new Set(['b', 't', 'T', 'q', 'Q', 'l', 'v']);
/** Commands whose text runs to the end of the line (`a text`, `a\` then lines ending in `\`). */
const TEXT = new Set(['a', 'i', 'c']);
/** Flags of `s` that change only what is replaced and printed. */
const S_FLAGS = /[gpiImM0-9]/;

const WHAT: Readonly<Record<string, string>> = {
  e: 'runs a command', w: 'writes into a file', W: 'writes into a file', r: 'reads a file into its output', R: 'reads a file into its output',
};

/** sed is its own signature when its options are understood and every command of its script is inert. */
export function readSed(program: string, words: ShellWord[]): Reading {
  const self = [quoteWords([program])];
  const read = readOptions('sed', words, SED_OPTIONS);
  if ('problem' in read) return never(read.problem, self);
  const expressions = read.options.filter((option) => option.name === '-e' || option.name === '--expression');
  const scripts = expressions.length > 0 ? expressions : read.operands.slice(0, 1).map((word) => ({ value: word.value, fixed: word.value !== undefined && !word.pattern, word }));
  if (scripts.length === 0) return never('`sed` is given no script', self);
  for (const script of scripts) {
    if (script.value === undefined || !script.fixed) return never(`its sed script comes from an expansion or pattern (${script.word.text})`, self);
    const problem = sedScriptProblem(script.value);
    if (problem !== undefined) return never(`its sed script ${problem}`, self);
  }
  return { signatures: self };
}

/** Why a sed script is not inert, or undefined when every command in it is. */
export function sedScriptProblem(script: string): string | undefined {
  const reader = new SedReader(script);
  return reader.read();
}

class SedReader {
  private i = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  read(): string | undefined {
    for (;;) {
      this.skip(/[\s;]/);
      if (this.i >= this.text.length) return this.depth === 0 ? undefined : 'has a `{` without its `}`';
      const problem = this.command();
      if (problem !== undefined) return problem;
    }
  }

  private command(): string | undefined {
    if (this.peek() === '#') return this.toLineEnd();
    const address = this.address();
    if (address !== undefined) return address;
    this.skip(/[ \t]/);
    if (this.peek() === ',') {
      this.i++;
      this.skip(/[ \t]/);
      if (this.peek() === '+' || this.peek() === '~') {
        this.i++;
        if (!this.number()) return 'has an address it cannot read';
      } else {
        const second = this.address();
        if (second !== undefined) return second;
      }
    }
    this.skip(/[ \t]/);
    while (this.peek() === '!') {
      this.i++;
      this.skip(/[ \t]/);
    }
    const name = this.text[this.i++];
    if (name === undefined) return 'ends after an address, with no command';
    if (name === '{') {
      this.depth++;
      return undefined;
    }
    if (name === '}') {
      if (--this.depth < 0) return 'has a `}` without its `{`';
      return this.end();
    }
    if (INERT.has(name)) return this.end();
    if (name === ':') {
      this.skip(/[ \t]/);
      if (!/[^\s;]/.test(this.peek())) return 'has a `:` with no label';
      // GNU sed ends a label at a blank and reads what follows as another command (`:a e CMD`).
      this.skip(/[^\s;]/);
      return this.end();
    }
    if (WITH_WORD.has(name)) {
      this.skip(/[ \t]/);
      this.skip(/[^\s;}]/);
      return this.end();
    }
    if (TEXT.has(name)) return this.textArgument();
    if (name === 's') return this.substitute();
    if (name === 'y') {
      const delimiter = this.text[this.i++];
      if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') return 'has a `y` command it cannot read';
      if (!this.part(delimiter) || !this.part(delimiter)) return 'has a `y` command without its end';
      return this.end();
    }
    if (Object.prototype.hasOwnProperty.call(WHAT, name)) return `has the command \`${name}\`, which ${WHAT[name]}`;
    return `has the command \`${name}\`, which these rules do not know to be inert`;
  }

  /** An address: a line number, `first~step`, `$`, `/regex/` or `\cregexc` with its `I`/`M` flags. */
  private address(): string | undefined {
    const ch = this.peek();
    if (/\d/.test(ch)) {
      this.number();
      if (this.peek() === '~') {
        this.i++;
        if (!this.number()) return 'has an address it cannot read';
      }
      return undefined;
    }
    if (ch === '$') {
      this.i++;
      return undefined;
    }
    if (ch === '/' || ch === '\\') {
      this.i++;
      const delimiter = ch === '/' ? '/' : this.text[this.i++];
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return 'has an address it cannot read';
      if (!this.part(delimiter)) return 'has a regular expression without its end';
      while (/[IM]/.test(this.peek())) this.i++;
    }
    return undefined;
  }

  /** `s/regex/replacement/flags`; a `w` flag takes the rest of the line as a file name. */
  private substitute(): string | undefined {
    const delimiter = this.text[this.i++];
    if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') return 'has an `s` command it cannot read';
    if (!this.part(delimiter) || !this.part(delimiter)) return 'has an `s` command without its end';
    for (;;) {
      const flag = this.peek();
      if (flag === 'e') return 'has an `s` command with the flag `e`, which runs the result as a command';
      if (flag === 'w' || flag === 'W') return 'has an `s` command with the flag `w`, which writes into a file';
      if (flag === '' || !S_FLAGS.test(flag)) break;
      this.i++;
    }
    return this.end();
  }

  /** The text of `a`, `i`, `c`: GNU's one-line form, or `\` and lines continued by a trailing `\`. */
  private textArgument(): string | undefined {
    this.skip(/[ \t]/);
    if (this.peek() === '\\') {
      this.i++;
      this.skip(/[ \t]/);
      if (this.peek() === '\n') this.i++;
    }
    while (this.i < this.text.length && this.text[this.i] !== '\n') {
      if (this.text[this.i] === '\\') this.i++;
      this.i++;
    }
    return undefined;
  }

  /** Reads up to an unescaped `delimiter`; false when the script ends first. */
  private part(delimiter: string): boolean {
    while (this.i < this.text.length) {
      const ch = this.text[this.i++];
      if (ch === '\\') this.i++;
      else if (ch === delimiter) return true;
    }
    return false;
  }

  /** After a command: only spaces, then `;`, a newline, `}`, a comment, or the end. */
  private end(): string | undefined {
    this.skip(/[ \t]/);
    const ch = this.peek();
    if (ch === '' || ch === ';' || ch === '\n' || ch === '}' || ch === '#') return undefined;
    return `has \`${ch}\` after a command, which these rules cannot read`;
  }

  private toLineEnd(): undefined {
    this.skip(/[^\n]/);
    return undefined;
  }

  private number(): boolean {
    const start = this.i;
    this.skip(/\d/);
    return this.i > start;
  }

  private peek(): string {
    return this.text[this.i] ?? '';
  }

  private skip(pattern: RegExp): void {
    while (this.i < this.text.length && pattern.test(this.text[this.i])) this.i++;
  }
}
