// sqlite3, read as its shell reads it: options anywhere (one dash or two), the database, then SQL or a
// dot-command per operand. Deny by default: a statement is inert when it is a `SELECT` (or `VALUES`,
// `EXPLAIN SELECT`) whose calls are all to the pure functions listed below — a `SELECT` cannot change the
// database, and the shell's own functions that write, read or run (`writefile`, `readfile`, `edit`,
// `load_extension`, `fsdir`…) are not on the list; the dot-commands allowed only describe the
// database. Anything else (`.shell`, `.system`, `.output`, `.once`, `.load`, `.import`, `ATTACH`, a write,
// `-cmd`, `-init`, SQL read from standard input) asks.
import { never, quoteWords, type Reading } from './reading';
import { mayBeOption } from './scriptOptions';
import type { ShellWord } from './words';

/** Options that change only how results look, or open the database read-only or in safe mode. */
const FLAGS = new Set([
  'readonly', 'safe', 'header', 'noheader', 'headers', 'column', 'csv', 'json', 'line', 'list', 'box', 'table', 'markdown', 'html', 'tabs',
  'ascii', 'quote', 'bail', 'batch', 'echo', 'version', 'help', 'stats', 'nofollow', 'no-rowid-in-view',
]);
const VALUES = new Set(['separator', 'newline', 'nullvalue', 'escape']);
const DOT_COMMANDS = new Set(['.tables', '.schema', '.indexes', '.indices', '.databases', '.help', '.show', '.fullschema', '.headers', '.mode']);
const FUNCTIONS = new Set(`count sum avg min max total group_concat string_agg length octet_length lower upper substr substring trim ltrim rtrim
replace instr abs round coalesce ifnull nullif iif typeof date time datetime julianday unixepoch strftime timediff printf format hex unhex
quote char unicode random zeroblob likely unlikely glob like concat concat_ws sign ceil ceiling floor trunc exp ln log log2 log10 pow power sqrt
mod pi json json_extract json_array json_object json_type json_valid json_array_length json_each json_tree json_group_array
json_group_object row_number rank dense_rank ntile lag lead first_value last_value nth_value cast exists in values over filter as not and or
on using where from select join`.split(/\s+/));

/** sqlite3 is its own signature when every operand after the database is an inert statement or dot-command. */
export function readSqlite(program: string, words: ShellWord[], stdinFed: boolean): Reading {
  const self = [quoteWords([program])];
  const operands: ShellWord[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (mayBeOption(word) && (word.value === undefined || word.pattern)) return never(`\`${word.text}\` may expand into an option of \`sqlite3\` (\`-cmd\`, \`-init\`)`, self);
    const value = word.value ?? '';
    if (!value.startsWith('-') || value === '-') {
      operands.push(word);
      continue;
    }
    const name = value.replace(/^--?/, '');
    if (FLAGS.has(name)) continue;
    if (VALUES.has(name)) {
      i++;
      continue;
    }
    return never(`\`sqlite3 -${name}\` is an option these rules do not know to be inert (\`-cmd\` and \`-init\` run commands)`, self);
  }
  const sql = operands.slice(1);
  if (sql.length === 0) return never('`sqlite3` reads its SQL from standard input, which these rules do not read', self);
  for (const word of sql) {
    if (word.value === undefined || word.pattern) return never(`its SQL comes from an expansion or pattern (${word.text})`, self);
    const problem = sqlProblem(word.value);
    if (problem !== undefined) return never(`its SQL ${problem}`, self);
  }
  return stdinFed ? never('`sqlite3` is fed standard input, which it may read as more commands', self) : { signatures: self };
}

/** Why an operand of sqlite3 (SQL, or one dot-command) is not inert, or undefined. */
export function sqlProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('.')) {
    const command = trimmed.split(/\s+/)[0];
    return DOT_COMMANDS.has(command) ? undefined : `is the dot-command \`${command}\`, which these rules do not know to be inert`;
  }
  // Comments and string literals are not code; identifiers in double quotes or brackets are names.
  const code = trimmed.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ').replace(/'(?:[^']|'')*'/g, '0').replace(/"(?:[^"]|"")*"|\[[^\]]*\]|`[^`]*`/g, 'x');
  if (/['"`[]/.test(code)) return 'has a quote without its end';
  for (const statement of code.split(';')) {
    const words = statement.trim().split(/\s+/).filter((word) => word !== '');
    if (words.length === 0) continue;
    const head = words[0].toLowerCase();
    const selects = head === 'select' || head === 'values' || (head === 'explain' && /^(?:select|values)$|^query$/i.test(words[1] ?? ''));
    if (!selects) return `has a \`${words[0].toUpperCase()}\` statement, which can change the database or what the shell does`;
    for (const call of statement.matchAll(/([A-Za-z_]\w*)\s*\(/g)) {
      if (!FUNCTIONS.has(call[1].toLowerCase())) return `calls \`${call[1]}\`, which is not a function these rules know to be pure`;
    }
  }
  return undefined;
}
