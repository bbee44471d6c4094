// What bash reads differently from the syntax tree or opens itself: a line joined to the next by a
// trailing backslash, and a redirection from a device such as `/dev/tcp/HOST/PORT`.
import { quoteWords } from './reading';

/**
 * Why reading from `target` is not inert, or undefined: a literal path, and under `/dev/` only the
 * devices that are plain data. Bash itself opens `/dev/tcp/HOST/PORT` and `/dev/udp/…` as a network
 * connection, so `cat f 3</dev/tcp/h/p >&3` would send the file away.
 */
export function inputProblem(target: string | undefined): string | undefined {
  if (target === undefined) return 'reads from a file named by an expansion, which may be a network connection';
  if (target.startsWith('/dev/') && !INPUT_DEVICES.has(target)) return `reads from ${quoteWords([target])}, a device or a network connection that bash opens itself`;
  return undefined;
}

/**
 * Whether a backslash ends a line where bash joins the two lines: anywhere but inside single quotes and
 * comments (in double quotes and `$'…'` too, as far as this reader is concerned: asking is the safe side).
 */
export function joinsLines(command: string): boolean {
  let state: 'plain' | 'single' | 'double' | 'ansi' = 'plain';
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (state === 'single') {
      if (c === "'") state = 'plain';
      continue;
    }
    if (c === '\\') {
      if (command[i + 1] === '\n' || (command[i + 1] === '\r' && command[i + 2] === '\n')) return true;
      i++;
      continue;
    }
    if (state === 'double') {
      if (c === '"') state = 'plain';
    } else if (state === 'ansi') {
      if (c === "'") state = 'plain';
    } else if (c === '"') state = 'double';
    else if (c === "'") state = command[i - 1] === '$' ? 'ansi' : 'single';
    else if (c === '#' && (i === 0 || /[\s;&|()]/.test(command[i - 1]))) {
      const next = command.indexOf('\n', i);
      if (next < 0) return false;
      i = next;
    }
  }
  return false;
}

/** The devices a command may read from: they hold no one's data and reach nothing. */
const INPUT_DEVICES = new Set(['/dev/null', '/dev/zero', '/dev/stdin', '/dev/random', '/dev/urandom']);
