// jq, read as jq reads it: its options (anywhere among the words, until `--`), then its filter by the jq
// token grammar. Deny by default: a name in the filter is a field, a variable, a format, an object key, a
// function the filter defines, or one of the builtins listed below (which compute, select, format or read
// the input and the environment); `import`/`include`, and the options that load modules or read the
// filter from a file (`-L`, `--library-path`, `-f`, `--from-file`) ask. `--rawfile`/`--slurpfile` only
// read a file into a variable, as `cat` would.
import { never, quoteWords, type Reading } from './reading';
import { readOptions, type OptionGrammar } from './scriptOptions';
import type { ShellWord } from './words';

const MODULES = { never: 'loads jq modules from the folder given as its value, which these rules do not read' };
const FROM_FILE = { never: 'reads its filter from a file, which these rules do not read' };

const JQ_OPTIONS: OptionGrammar = {
  short: { r: 'flag', j: 'flag', a: 'flag', c: 'flag', n: 'flag', e: 'flag', s: 'flag', S: 'flag', C: 'flag', M: 'flag', R: 'flag', h: 'flag', V: 'flag', f: FROM_FILE, L: MODULES },
  long: {
    'raw-output': 'flag', 'join-output': 'flag', 'ascii-output': 'flag', 'compact-output': 'flag', 'null-input': 'flag', 'exit-status': 'flag',
    slurp: 'flag', 'sort-keys': 'flag', 'color-output': 'flag', 'monochrome-output': 'flag', 'raw-input': 'flag', tab: 'flag', indent: 'value',
    args: 'flag', jsonargs: 'flag', seq: 'flag', stream: 'flag', 'stream-errors': 'flag', 'raw-output0': 'flag', unbuffered: 'flag',
    'from-file': FROM_FILE, 'library-path': MODULES, help: 'flag', version: 'flag', 'build-configuration': 'flag',
  },
  permutes: true,
};
/** Options that take two values: a variable's name, and its value or the file it is read from. */
const PAIRS = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);

const BUILTINS = new Set(`length utf8bytelength not keys keys_unsorted values has in map map_values path paths leaf_paths del getpath setpath
delpaths to_entries from_entries with_entries select empty error add any all flatten range floor sqrt pow log log2 log10 exp exp2 exp10 min max
min_by max_by unique unique_by group_by sort sort_by reverse contains inside startswith endswith ltrimstr rtrimstr trim ltrim rtrim explode
implode split join ascii_downcase ascii_upcase ascii recurse env transpose first last nth until while repeat limit input inputs debug stderr
input_filename input_line_number tostring tonumber type infinite nan isinfinite isnan isnormal isvalid arrays objects iterables booleans
numbers strings nulls scalars test match capture scan splits sub gsub tojson fromjson todate fromdate now dateadd datesub date mktime gmtime
localtime strftime strptime strflocaltime todateiso8601 fromdateiso8601 indices index rindex combinations walk tostream fromstream
truncate_stream halt halt_error abs toarray pick significand gamma lgamma tgamma frexp ldexp modf round ceil fabs trunc null true false
have_literal_numbers have_decnum`.split(/\s+/));
const KEYWORDS = new Set(['def', 'if', 'then', 'elif', 'else', 'end', 'as', 'reduce', 'foreach', 'try', 'catch', 'label', 'and', 'or', 'not', 'break']);
const FORMATS = new Set(['text', 'json', 'csv', 'tsv', 'html', 'uri', 'sh', 'base64', 'base64d', 'base32', 'base32d']);

/** jq is its own signature when its options are understood and every name in its filter is inert. */
export function readJq(program: string, words: ShellWord[]): Reading {
  const self = [quoteWords([program])];
  const rest: ShellWord[] = [];
  for (let k = 0; k < words.length; k++) {
    if (words[k].value === '--') {
      rest.push(...words.slice(k));
      break;
    }
    if (PAIRS.has(words[k].value ?? '')) {
      if (words[k + 2] === undefined) return never(`\`jq ${words[k].value}\` is given fewer than two values`, self);
      k += 2;
    } else rest.push(words[k]);
  }
  const read = readOptions('jq', rest, JQ_OPTIONS);
  if ('problem' in read) return never(read.problem, self);
  const filter = read.operands[0];
  if (filter === undefined) return { signatures: self };
  if (filter.value === undefined || filter.pattern) return never(`its jq filter comes from an expansion or pattern (${filter.text})`, self);
  const problem = jqFilterProblem(filter.value);
  return problem === undefined ? { signatures: self } : never(`its jq filter ${problem}`, self);
}

/** Why a jq filter is not inert, or undefined when every name in it is. */
export function jqFilterProblem(filter: string): string | undefined {
  // Strings are data, except the code of their `\(…)` interpolations.
  const code = filter.replace(/"(?:[^"\\]|\\.)*"/g, (text) => ` ${interpolations(text)} `);
  const names = [...code.matchAll(/([.$@]?)([A-Za-z_][A-Za-z0-9_]*)(?:::[A-Za-z_]\w*)*/g)];
  const defined = new Set<string>();
  for (const match of code.matchAll(/\bdef\s+([A-Za-z_]\w*)\s*(?:\(([^)]*)\))?/g)) {
    defined.add(match[1]);
    for (const parameter of (match[2] ?? '').split(';')) defined.add(parameter.trim().replace(/^\$/, ''));
  }
  for (const match of names) {
    const [whole, sigil, name] = match;
    const after = code.slice((match.index ?? 0) + whole.length).trimStart();
    if (whole.includes('::')) return `calls \`${whole}\`, a function of a module`;
    if (sigil === '.' || sigil === '$') continue;
    if (sigil === '@') {
      if (!FORMATS.has(name)) return `has the format \`@${name}\`, which these rules do not know`;
      continue;
    }
    if (name === 'import' || name === 'include') return `has \`${name}\`, which loads a jq module from a file`;
    if (KEYWORDS.has(name) || BUILTINS.has(name) || defined.has(name)) continue;
    // An object key: `{name: …}`, or the shorthand `{name}` / `{a, b}`.
    if (after.startsWith(':') || /^[,}]/.test(after)) continue;
    return `calls \`${name}\`, which is not a builtin these rules know to be inert`;
  }
  return undefined;
}

/** The code inside a string's `\(…)` interpolations, with the rest of the string dropped. */
function interpolations(text: string): string {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === '(') {
      let depth = 1;
      const start = i + 2;
      for (i = start; i < text.length && depth > 0; i++) {
        if (text[i] === '(') depth++;
        else if (text[i] === ')') depth--;
      }
      parts.push(text.slice(start, i - 1));
    } else if (text[i] === '\\') i++;
  }
  return parts.join(' ');
}
