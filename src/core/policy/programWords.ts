// Which program a command line finally runs, through the shell reader's table of wrappers (`env` with
// its options and assignments, `timeout`, `nice`…) and `cmd /c`. A program is known by its file name,
// and a Windows name (`NPX.CMD`, `C:\…\docker.exe`) without its suffix and its case. A program named by
// a path outside the system's folders is that file, which may be any program: it is not vouched for.
import { isElevator, isShell, WRAPPERS, type WrapperSpec } from '../shell';
import { isExecVariable } from '../trust/execVariables';
import { own } from './launchReading';

/** The programs a command line passes through and the one that runs, with its words. */
export interface ProgramWords {
  programs: string[];
  /** The program that runs and its arguments, when known. */
  runs?: { program: string; args: readonly string[] };
  /** Why the program that runs is not known, naming the word. */
  unknown?: string;
  unvouched?: string;
}

const WINDOWS_SUFFIX = /\.(?:exe|cmd|bat|com)$/i;
// Folders whose programs only an administrator installs.
const SYSTEM_FOLDERS = ['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin', '/sbin', '/opt/homebrew/bin', '/snap/bin'];
const WINDOWS_SYSTEM_FOLDERS = ['c:\\program files\\nodejs', 'c:\\program files\\docker\\docker\\resources\\bin', 'c:\\windows\\system32'];
// cmd's switches that change nothing about the command after /c (echo, AutoRun, Unicode output).
const CMD_SWITCHES = ['/s', '/q', '/d', '/a', '/u'];
// Characters cmd reads in a command line (operators, quotes, escapes, variables): a word with one is not read here.
const CMD_SPECIAL = /[\s&|<>^%!"()]/;

/** The name a program is known by: its file name, and on Windows without `.exe`/`.cmd`/`.bat`/`.com`, in lower case. */
export function programName(command: string, platform: NodeJS.Platform): string {
  const file = command.split(/[\\/]/).pop() ?? command;
  const windows = platform === 'win32' || WINDOWS_SUFFIX.test(file) || command.includes('\\') || /^[A-Za-z]:/.test(command);
  return windows ? file.replace(WINDOWS_SUFFIX, '').toLowerCase() : file;
}

/** Why a program named by a path is not vouched for, or undefined for a bare name or a system folder's program. */
function pathDoubt(command: string): string | undefined {
  const cut = Math.max(command.lastIndexOf('/'), command.lastIndexOf('\\'));
  if (cut < 0) return undefined;
  const folder = command.slice(0, cut);
  if (SYSTEM_FOLDERS.includes(folder) || WINDOWS_SYSTEM_FOLDERS.includes(folder.replace(/\//g, '\\').toLowerCase())) return undefined;
  return `${command} (a file outside the system's folders, which may be any program)`;
}

/** Reads `command args` down to the program that runs. */
export function readProgramWords(command: string, args: readonly string[], platform: NodeJS.Platform): ProgramWords {
  const programs: string[] = [];
  let unvouched: string | undefined;
  let written = command;
  let rest = args;
  for (;;) {
    const name = programName(written, platform);
    programs.push(name);
    unvouched ??= pathDoubt(written);
    let next: { at: number; unvouched?: string } | { unknown: string };
    if (own(WRAPPERS, name)) next = readWrapper(name, WRAPPERS[name], rest);
    else if (name === 'cmd') next = readCmd(rest);
    else if (isElevator(name)) return { programs, unknown: `${written} (runs another command with more privileges, which the policy does not read)` };
    else if (isShell(name)) return { programs, unknown: `${written} (a shell, whose script the policy does not read)` };
    else return { programs, runs: { program: name, args: rest }, ...(unvouched !== undefined ? { unvouched } : {}) };
    if ('unknown' in next) return { programs, unknown: next.unknown };
    unvouched ??= next.unvouched;
    if (next.at >= rest.length) return { programs, unknown: `${written} (names no command to run)` };
    written = rest[next.at];
    rest = rest.slice(next.at + 1);
  }
}

/** Where a wrapper's command starts: its options read as GNU getopt_long does (unique prefixes, clusters). */
function readWrapper(name: string, spec: WrapperSpec, args: readonly string[]): { at: number; unvouched?: string } | { unknown: string } {
  if (spec.opaque === true) return { unknown: `${name} (runs what it chooses, not the system's program of that name)` };
  const flags = spec.flags ?? [];
  const values = spec.valueOptions ?? [];
  const never = spec.neverOptions ?? {};
  const lookups = spec.lookupOptions ?? [];
  const all = [...new Set([...flags, ...values, ...Object.keys(never), ...lookups])];
  let i = 0;
  let unvouched: string | undefined;
  const refuse = (option: string): { unknown: string } | undefined => {
    if (own(never, option)) return { unknown: `${name} ${option} (${never[option]})` };
    if (lookups.includes(option)) return { unknown: `${name} ${option} (only looks the command up)` };
    return undefined;
  };
  for (; i < args.length; i++) {
    const word = args[i];
    if (word === '--') { i++; break; }
    // `env -` is `env -i`.
    if (word === '-' && spec.assignments === true) continue;
    if (!word.startsWith('-') || word === '-') break;
    if (spec.numberOption === true && /^-\d+$/.test(word)) continue;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const written = eq < 0 ? word : word.slice(0, eq);
      const candidates = all.includes(written) ? [written] : all.filter((option) => option.startsWith('--') && option.startsWith(written));
      if (candidates.length !== 1) return { unknown: `${name} ${written} (${candidates.length === 0 ? 'an option the policy does not know' : `an abbreviation of ${candidates.join(', ')}`})` };
      const option = candidates[0];
      const refused = refuse(option);
      if (refused !== undefined) return refused;
      if (values.includes(option)) { if (eq < 0) i++; } else if (eq >= 0) return { unknown: `${name} ${word} (a value given to an option that takes none)` };
      continue;
    }
    for (let k = 1; k < word.length; k++) {
      const option = `-${word[k]}`;
      const refused = refuse(option);
      if (refused !== undefined) return refused;
      if (values.includes(option)) { if (k === word.length - 1) i++; break; }
      if (!flags.includes(option)) return { unknown: `${name} ${option} (an option the policy does not know)` };
    }
  }
  i += spec.operands ?? 0;
  if (spec.assignments === true) {
    for (; i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]); i++) {
      const variable = args[i].slice(0, args[i].indexOf('='));
      if (isExecVariable(variable)) unvouched ??= `${name} ${variable}= (a variable that can change which program runs or what it loads)`;
    }
  }
  return unvouched === undefined ? { at: i } : { at: i, unvouched };
}

/** Where the command of `cmd /c …` starts; a word cmd would read again (operators, quotes, `%`) is not read here. */
function readCmd(args: readonly string[]): { at: number } | { unknown: string } {
  for (let i = 0; i < args.length; i++) {
    const option = args[i].toLowerCase();
    if (option === '/c' || option === '/k') {
      const special = args.slice(i + 1).find((word) => CMD_SPECIAL.test(word));
      return special === undefined ? { at: i + 1 } : { unknown: `cmd ${JSON.stringify(special)} (a word cmd reads again: an operator, a quote, a variable or a space)` };
    }
    if (!CMD_SWITCHES.includes(option)) return { unknown: `cmd ${args[i]} (${option.startsWith('/') ? 'a switch the policy does not know' : 'without /c'})` };
  }
  return { unknown: 'cmd (without /c)' };
}
