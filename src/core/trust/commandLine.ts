// Finds every program a launch would run: the command itself, what wrappers such as `env` or `sudo`
// hand on to, and the commands inside shell strings (`sh -c`, `cmd /c`, `powershell -Command`,
// `wsl`, base64 `-EncodedCommand`). Danger flags then judge each simple command on its own.
import { ELEVATORS, FOREIGN_SHELLS, POSIX_SHELLS, POWERSHELLS, WRAPPERS, simpleCommands, type ShellDialect, type ShellParser } from '../shell';

/** One program invocation found in a launch. */
export interface SimpleCommand {
  /** The program as written (`/usr/bin/rm`, `npx`). */
  program: string;
  /** Its basename, lower-case, without `.exe`/`.cmd`/`.bat`/`.com`: what decides how it is read. */
  name: string;
  args: string[];
  /** Wrapper programs peeled off in front of it, e.g. `['sudo', 'env']`. */
  wrappers: string[];
  /** Names of variables set in front of it (`FOO=1 cmd`, `env FOO=1 cmd`). */
  assignments: string[];
  /** True for the launch's own command line; false for commands found inside strings. */
  top: boolean;
}

/** Everything a launch would run, plus every command-line text seen, for pattern scans over whole lines. */
export interface CommandWalk {
  commands: SimpleCommand[];
  texts: string[];
  /** Base64 blobs given to PowerShell's `-EncodedCommand`, with their decoded text when it decodes. */
  encoded: { blob: string; decoded?: string }[];
}

/** Wrappers and elevators, from the one shell table, with the options of each that take a value. */
const UNWRAPPED: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries([
  ...Object.entries(WRAPPERS).map(([name, spec]) => [name, new Set([...(spec.valueOptions ?? []), ...Object.keys(spec.neverOptions ?? {})])] as const),
  // su's operands are a user name and a `-c` script: visitNested reads them.
  ...Object.entries(ELEVATORS).filter(([name]) => name !== 'su').map(([name, options]) => [name, new Set(options)] as const),
]);
/** Wrappers whose first positional argument is theirs, not the wrapped program (`timeout 10 cmd`). */
const WRAPPER_POSITIONALS: Record<string, number> = Object.fromEntries(Object.entries(WRAPPERS).map(([name, spec]) => [name, spec.operands ?? 0]));
/** Unix shells whose `-c` argument is a command line. */
const DASH_C_SHELLS: ReadonlySet<string> = new Set([...POSIX_SHELLS, ...FOREIGN_SHELLS]);
const MAX_DEPTH = 6;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const LOOKS_LIKE_SCRIPT = /\s|[|;&`]|\$\(/;

/** The basename of a program, lower-case and without a Windows executable extension. */
export function programName(program: string): string {
  const base = program.split(/[\\/]/).pop() ?? program;
  return base.toLowerCase().replace(/\.(?:exe|cmd|bat|com)$/, '');
}

/** The PowerShell parameters that decide what runs: `-Command` text, an `-EncodedCommand` blob, a `-File`. */
export function powershellInvocation(name: string, args: string[]): { command?: string; encoded?: string; file?: string } {
  for (let i = 0; i < args.length; i++) {
    const param = powershellParameter(args[i]);
    if (param === undefined) {
      // A bare first argument is a script file for pwsh, and a command for Windows PowerShell.
      const bare = args[i];
      return name === 'pwsh' || /\.ps1$/i.test(bare) ? { file: bare } : { command: args.slice(i).join(' ') };
    }
    // PowerShell accepts any unambiguous prefix of a parameter name, and documents -e, -ec and -c.
    if (isPrefixOf(param, 'encodedcommand', 1) || param === 'ec') return { encoded: args[i + 1] };
    if (isPrefixOf(param, 'command', 1)) return { command: args.slice(i + 1).join(' ') };
    if (isPrefixOf(param, 'file', 1)) return { file: args[i + 1] };
    if (VALUE_PARAMETERS.some(([full, minLength]) => param === full || isPrefixOf(param, full, minLength))) i++;
  }
  return {};
}

/** Parameters that take a value, with the shortest prefix PowerShell resolves to them (aliases as whole names). */
const VALUE_PARAMETERS: readonly (readonly [string, number])[] = [
  ['executionpolicy', 2], ['ep', 2], ['ex', 2], ['configurationname', 4], ['configurationfile', 4], ['workingdirectory', 2], ['wd', 2],
  ['windowstyle', 1], ['inputformat', 2], ['outputformat', 1], ['psconsolefile', 1], ['version', 1], ['settingsfile', 2], ['custompipename', 2],
];

function powershellParameter(arg: string): string | undefined {
  const match = /^(?:--?|\/)([A-Za-z_]+)(?::.*)?$/.exec(arg);
  return match ? match[1].toLowerCase() : undefined;
}

function isPrefixOf(abbreviation: string, full: string, minLength: number): boolean {
  return abbreviation.length >= minLength && full.startsWith(abbreviation);
}

/** Decodes a PowerShell `-EncodedCommand` blob (base64 of UTF-16LE), or undefined when it is not one. */
export function decodePowershell(blob: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(blob) || blob.length < 4) return undefined;
  const bytes = Buffer.from(blob, 'base64');
  if (bytes.length < 2 || bytes.length % 2 !== 0) return undefined;
  const text = bytes.toString('utf16le');
  // Text that decodes to control characters was not UTF-16 to begin with.
  return /^[\P{Cc}\t\r\n]*$/u.test(text) ? text : undefined;
}

/** Walks the launch's command line and every command line nested in it, reading shell text with `parser`. */
export function walkCommandLine(command: string, args: string[], parser: ShellParser): CommandWalk {
  const walk: CommandWalk = { commands: [], texts: [[command, ...args].join(' ')], encoded: [] };
  const seenScripts = new Set<string>();

  const visitScript = (text: string, dialect: ShellDialect, depth: number): void => {
    if (depth > MAX_DEPTH || text.trim() === '' || seenScripts.has(text)) return;
    seenScripts.add(text);
    walk.texts.push(text);
    const split = simpleCommands(text, dialect, parser);
    for (const words of split.commands) visitArgv(words, false, dialect, depth + 1);
    for (const inner of split.substitutions) visitScript(inner, dialect, depth + 1);
  };

  const visitArgv = (argv: string[], top: boolean, dialect: ShellDialect, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const wrappers: string[] = [];
    const assignments: string[] = [];
    let i = 0;
    const skipAssignments = (): void => {
      for (; i < argv.length && ASSIGNMENT.test(argv[i]); i++) assignments.push(argv[i].slice(0, argv[i].indexOf('=')));
    };
    // In a shell, `NAME=value cmd` sets a variable for cmd; as the launch's own program name it is a file name.
    if (!top) skipAssignments();
    while (i < argv.length) {
      const name = programName(argv[i]);
      const valueOptions = Object.prototype.hasOwnProperty.call(UNWRAPPED, name) ? UNWRAPPED[name] : undefined;
      if (valueOptions === undefined) break;
      wrappers.push(name);
      i = skipOptions(argv, i + 1, valueOptions) + (WRAPPER_POSITIONALS[name] ?? 0);
      skipAssignments();
    }
    if (i >= argv.length) {
      // Only wrappers (a bare `sudo`): still a command, so the wrapper itself is judged.
      const last = wrappers.pop();
      if (last !== undefined) walk.commands.push({ program: last, name: last, args: [], wrappers, assignments, top });
      return;
    }
    const program = argv[i];
    const name = programName(program);
    const rest = argv.slice(i + 1);
    walk.commands.push({ program, name, args: rest, wrappers, assignments, top });
    const handled = visitNested(name, rest, depth);
    const argDialect: ShellDialect = name === 'cmd' || POWERSHELLS.has(name) ? 'windows' : dialect;
    // An argument that reads like a command line may well be run as one (`--exec "…"`, `-c "…"`).
    rest.forEach((arg, index) => {
      if (!handled.has(index) && LOOKS_LIKE_SCRIPT.test(arg)) visitScript(arg, argDialect, depth);
    });
  };

  /** Visits what a shell-like program runs; returns the indexes of the arguments it consumed. */
  const visitNested = (name: string, rest: string[], depth: number): Set<number> => {
    const consumed = new Set<number>();
    const consumeFrom = (start: number): void => {
      for (let k = start; k < rest.length; k++) consumed.add(k);
    };
    if (DASH_C_SHELLS.has(name) || name === 'su') {
      const at = shellCommandOption(name, rest);
      if (at >= 0 && at + 1 < rest.length) {
        consumed.add(at + 1);
        visitScript(rest[at + 1], 'posix', depth);
      }
    } else if (name === 'cmd') {
      const at = rest.findIndex((arg) => /^\/[ck]$/i.test(arg));
      if (at >= 0) {
        consumeFrom(at + 1);
        visitScript(rest.slice(at + 1).join(' '), 'windows', depth);
      }
    } else if (POWERSHELLS.has(name)) {
      const invocation = powershellInvocation(name, rest);
      if (invocation.command !== undefined) {
        consumeFrom(0);
        visitScript(invocation.command, 'windows', depth);
      }
      if (invocation.encoded !== undefined) {
        const decoded = decodePowershell(invocation.encoded);
        walk.encoded.push({ blob: invocation.encoded, decoded });
        if (decoded !== undefined) visitScript(decoded, 'windows', depth);
      }
    } else if (name === 'wsl') {
      const start = skipOptions(rest, 0, new Set(['-d', '--distribution', '-u', '--user', '--cd', '--shell-type']));
      const execAt = rest.findIndex((arg) => arg === '-e' || arg === '--exec');
      consumeFrom(0);
      if (execAt >= 0) visitArgv(rest.slice(execAt + 1), false, 'posix', depth + 1);
      else visitScript(rest.slice(start).join(' '), 'posix', depth);
    } else if (name === 'eval' || name === 'runas') {
      // `eval` joins its arguments into a command; `runas /user:x "cmd"` takes one command string.
      const start = name === 'runas' ? rest.findIndex((arg) => !arg.startsWith('/')) : 0;
      if (start >= 0) {
        consumeFrom(start);
        visitScript(rest.slice(start).join(' '), name === 'runas' ? 'windows' : 'posix', depth);
      }
    }
    return consumed;
  };

  visitArgv([command, ...args], true, 'posix', 0);
  return walk;
}

/** The index of the `-c` option (or a cluster like `-lc`, or su's `--command`) among a shell's options, or -1. */
function shellCommandOption(name: string, args: string[]): number {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (name === 'su' && (arg === '-c' || arg === '--command')) return i;
    if (name === 'su') continue; // su takes a user name before or after its options
    if (arg === '--' || !arg.startsWith('-')) return -1;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg)) return i;
  }
  return -1;
}

/** The index of the first argument at or after `start` that is not an option (or an option's value). */
function skipOptions(args: string[], start: number, valueOptions: ReadonlySet<string>): number {
  let i = start;
  while (i < args.length && args[i].startsWith('-') && args[i] !== '-') {
    if (args[i] === '--') return i + 1;
    i += valueOptions.has(args[i]) ? 2 : 1;
  }
  return i;
}
