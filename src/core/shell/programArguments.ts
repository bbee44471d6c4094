// Programs whose arguments hold scripts or actions of their own: find's `-exec`/`-delete`, awk and sed
// programs, tee's files. Each is its own signature unless those arguments run commands or write files.
import { HARMLESS_TARGETS, never, quoteWords, type Reading } from './reading';
import type { ShellWord } from './words';

const AWK_RUNS = /\bsystem\s*\(|(?:^|[^|])\|(?:[^|]|$)|\b(?:print|printf)\b[^;}]*>/;
const SED_RUNS = /(?:^|[^A-Za-z\\])[ewW](?:\s|$|;|\})/;
/** An `s` command whose flags (after the third delimiter) hold `e` (run) or `w` (write): `s/x/id/ge`. */
const SED_S_FLAGS = /s([^\\\n\w\s])(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[A-Za-z0-9]*[ewW]/s;
/** gawk loads extensions or source files named in the program text. */
const AWK_LOADS = /@(?:load|include|namespace)\b/;
const AWK_VALUES = new Set(['-F', '-v', '--field-separator', '--assign']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const FIND_WRITES = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

/** `find … -exec CMD {} ;` is `find` and CMD's signature; `-delete` and the file-writing actions never. */
export function readFind(program: string, words: ShellWord[], readCommand: (words: ShellWord[]) => Reading): Reading {
  const signatures = [quoteWords([program])];
  let reason: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const value = words[i].value;
    if (value === '-delete') reason ??= '`find -delete` deletes the files it finds';
    else if (value !== undefined && FIND_WRITES.has(value)) reason ??= `\`find ${value}\` writes its list into a file`;
    else if (value !== undefined && FIND_EXEC.has(value)) {
      let end = i + 1;
      while (end < words.length && words[end].value !== ';' && words[end].value !== '+') end++;
      const inner = words.slice(i + 1, end);
      if (inner[0]?.value === '{}') reason ??= `\`find ${value} {}\` runs the files it finds as programs`;
      else {
        const reading = readCommand(inner);
        signatures.push(...reading.signatures);
        if (reading.never !== undefined) reason ??= `in \`find ${value}\`: ${reading.never}`;
      }
      i = end;
    }
  }
  return reason === undefined ? { signatures } : { signatures, never: reason };
}

/** awk is its own signature unless its program can run commands or write files. */
export function readAwk(program: string, words: ShellWord[]): Reading {
  const self = [quoteWords([program])];
  let i = 1;
  while (i < words.length) {
    const value = words[i].value;
    if (value === undefined || !value.startsWith('-') || value === '-') break;
    if (value === '--') {
      i++;
      break;
    }
    if (value === '-f' || value.startsWith('--file')) return never('`awk -f` runs an awk program from a file', self);
    // Deny by default: gawk's -l/--load loads a shared library, -i/--include and -E read source files.
    const name = value.startsWith('--') ? value.split('=')[0] : value.slice(0, 2);
    if (!AWK_VALUES.has(name)) return never(`\`awk ${name}\` is an option these rules do not know (gawk loads code with -l, -i and -E)`, self);
    if (value.length > 2 && !value.startsWith('--')) i++;
    else if (value.includes('=')) i++;
    else {
      if (words[i + 1]?.value === undefined) return never(`\`awk ${name}\` is given a value that comes from an expansion`, self);
      i += 2;
    }
  }
  const text = words[i];
  if (text === undefined) return { signatures: self };
  if (text.value === undefined) return never(`its awk program comes from an expansion (${text.text})`, self);
  if (AWK_LOADS.test(text.value)) return never('its awk program loads an extension or a source file (`@load`, `@include`)', self);
  if (AWK_RUNS.test(text.value)) return never('its awk program can run commands or write files (`system`, a pipe or `>`)', self);
  return { signatures: self };
}

/** sed is its own signature unless it edits files in place or its script can run commands or write files. */
export function readSed(program: string, words: ShellWord[]): Reading {
  const self = [quoteWords([program])];
  const scripts: ShellWord[] = [];
  let i = 1;
  while (i < words.length) {
    const value = words[i].value;
    if (value === undefined || !value.startsWith('-') || value === '-') break;
    if (value === '--') {
      i++;
      break;
    }
    if (value === '-f' || value.startsWith('--file')) return never('`sed -f` runs a sed script from a file', self);
    if (value.startsWith('--in-place') || /^-[A-Za-z]*i/.test(value)) return never('`sed -i` edits files in place', self);
    if (value === '-e' || value === '--expression') {
      if (words[i + 1] !== undefined) scripts.push(words[i + 1]);
      i += 2;
    } else if (value.startsWith('--expression=')) {
      scripts.push({ text: value, value: value.slice('--expression='.length), pattern: false });
      i++;
    } else i++;
  }
  if (scripts.length === 0 && words[i] !== undefined) scripts.push(words[i]);
  for (const script of scripts) {
    if (script.value === undefined) return never(`its sed script comes from an expansion (${script.text})`, self);
    if (SED_RUNS.test(script.value) || SED_S_FLAGS.test(script.value)) return never('its sed script can run commands or write files (`e`, `w`)', self);
  }
  return { signatures: self };
}

/** tee writes its input into every file it names. */
export function readTee(program: string, words: ShellWord[]): Reading {
  const self = [quoteWords([program])];
  for (const word of words.slice(1)) {
    if (word.value !== undefined && (word.value.startsWith('-') || HARMLESS_TARGETS.has(word.value))) continue;
    return never(`\`tee\` writes its input into the file ${word.text}`, self);
  }
  return { signatures: self };
}

