// find, read as find reads its expression: starting points, then primaries, each with the values it
// takes. Deny by default: the tests, options and operators listed below only select and print; `-exec`,
// `-execdir`, `-ok` and `-okdir` unwrap to the command they run (whose `{}` operands are file names
// nobody saw, read in inputWords.ts); `-delete`, the `-fprint…`/`-fls` writes and any primary not listed
// ask, named.
import { mayBeOption } from './scriptOptions';
import { never, quoteWords, type Reading } from './reading';
import type { ShellWord } from './words';

/** Primaries that take no value and only test, order or print. */
const FLAGS = new Set([
  '-depth', '-d', '-mount', '-xdev', '-noleaf', '-ignore_readdir_race', '-noignore_readdir_race', '-follow', '-warn', '-nowarn', '-daystart',
  '-nouser', '-nogroup', '-empty', '-readable', '-writable', '-executable', '-true', '-false', '-print', '-print0', '-ls', '-prune', '-quit',
  '-not', '!', '-a', '-and', '-o', '-or', ',', '(', ')', '-x', '-s', '-E', '-X',
]);
/** Primaries that take one value and only test or format what is printed. */
const VALUES = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-type', '-xtype', '-size', '-mtime', '-mmin',
  '-atime', '-amin', '-ctime', '-cmin', '-Btime', '-Bmin', '-newer', '-anewer', '-cnewer', '-Bnewer', '-perm', '-user', '-group', '-uid', '-gid',
  '-links', '-inum', '-samefile', '-lname', '-ilname', '-used', '-fstype', '-context', '-maxdepth', '-mindepth', '-regextype', '-printf',
  '-flags',
]);
/** `-newerXY REF` (GNU and BSD): X and Y each one of a, B, c, m, or t for a date. */
const NEWER = /^-newer[aBcm][aBcmt]$/;
/** Options before the starting points. */
const LEADING = /^-(?:[HLP]+|O\d)$/;
const EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const WRITES: Readonly<Record<string, string>> = {
  '-delete': 'deletes the files it finds', '-fprint': 'writes its list into a file', '-fprint0': 'writes its list into a file',
  '-fprintf': 'writes its list into a file', '-fls': 'writes its list into a file',
};

/** How `find -exec` reads its command: `inner` are the words of the command, `input` says whether `{}` stands among them. */
export type ExecReader = (inner: ShellWord[], via: string, input: boolean) => Reading;

/** `find … -exec CMD {} ;` is `find` and CMD's signature; anything that writes or that find's grammar does not list asks. */
export function readFind(program: string, words: ShellWord[], readCommand: ExecReader): Reading {
  const self = quoteWords([program]);
  const signatures = [self];
  let i = 1;
  while (i < words.length && words[i].value !== undefined && LEADING.test(words[i].value!)) i++;
  if (words[i]?.value === '-D') i += 2;
  // Starting points: the words before the first that starts an expression.
  for (; i < words.length; i++) {
    const word = words[i];
    if (mayBeOption(word) && (word.value === undefined || word.pattern)) return never(`\`${word.text}\` may expand into a primary of \`find\` (\`-delete\`, \`-exec\`)`, signatures);
    const value = word.value!;
    if (value.startsWith('-') || value === '!' || value === '(') break;
  }
  for (; i < words.length; i++) {
    const word = words[i];
    const value = word.value;
    if (value === undefined || word.pattern) return never(`\`${word.text}\` may expand into a primary of \`find\` (\`-delete\`, \`-exec\`)`, signatures);
    if (FLAGS.has(value) && value !== '-depth') continue;
    if (value === '-depth') {
      // GNU's `-depth` is a flag, BSD's `-depth N` takes a number.
      if (/^[+-]?\d+$/.test(words[i + 1]?.value ?? '')) i++;
      continue;
    }
    if (VALUES.has(value) || NEWER.test(value)) {
      if (words[i + 1] === undefined) return never(`\`find ${value}\` is given no value`, signatures);
      i++;
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(WRITES, value)) return never(`\`find ${value}\` ${WRITES[value]}`, signatures);
    if (EXEC.has(value)) {
      let end = i + 1;
      while (end < words.length && words[end].value !== ';' && !(words[end].value === '+' && words[end - 1].value === '{}')) end++;
      if (end >= words.length) return never(`\`find ${value}\` has no \`;\` or \`{} +\` ending its command`, signatures);
      const inner = words.slice(i + 1, end);
      if (inner.length === 0) return never(`\`find ${value}\` is given no command`, signatures);
      if ((inner[0].value ?? '').includes('{}')) return never(`\`find ${value} {}\` runs the files it finds as programs`, signatures);
      const reading = readCommand(inner, `find ${value}`, inner.some((word) => (word.value ?? word.text).includes('{}')));
      for (const signature of reading.signatures) if (!signatures.includes(signature)) signatures.push(signature);
      if (reading.never !== undefined) return never(`in \`find ${value}\`: ${reading.never}`, signatures);
      i = end;
      continue;
    }
    return never(`\`find ${value}\` is a primary these rules do not know to be inert`, signatures);
  }
  return { signatures };
}
