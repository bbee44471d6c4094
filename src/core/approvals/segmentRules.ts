// How one simple command (a segment: `git -C x commit -m "…"`) becomes its signatures: the program plus
// the words that select what it does, never its file or flag arguments. Wrappers are unwrapped to the
// command they run; programs that run code from their arguments either unwrap to it (`sh -c '…'`,
// `find -exec`) or can never be auto-approved (`python -c`, `sudo`).
import {
  ASSIGNING_BUILTINS, changesWhatRuns, COMMAND_OPTIONS, interpreterSpec, OTHER_SHELLS, POSIX_SHELLS, PRIVILEGED, RUNS_ARGUMENTS, TOOLS, WRAPPERS,
  type InterpreterSpec, type ToolSpec,
} from './programTables';
import { readAwk, readFind, readSed, readTee } from './programArguments';
import { never, quoteWords, type Reading } from './reading';
import type { ShellWord } from './shellValues';

export type { Reading } from './reading';


/** What a segment's reading depends on besides its words. */
export interface SegmentContext {
  /** Its standard input is a pipe or a redirection, so a program reading it reads the data there. */
  stdinFed: boolean;
  /** It runs under xargs, which adds words from its input. */
  underXargs?: boolean;
  /** Reads a script given as text (`sh -c`, `eval`) with the same rules; `via` names what runs it. */
  readScript(script: string, via: string): Reading;
}

/** A subcommand looks like a name: `commit`, `run-script`, `build:prod`; never a path, URL or pattern. */
const SUBCOMMAND = /^[A-Za-z0-9][\w.:+-]*$/;

/** The signatures of one simple command, given its words (program first). */
export function readSegment(words: ShellWord[], ctx: SegmentContext): Reading {
  if (words.length === 0) return { signatures: [] };
  const first = words[0];
  if (first.value === undefined) return never(`its program name comes from an expansion (${first.text}), so what runs is not known in advance`);
  if (first.pattern) return never(`its program name ${first.text} is a pattern that bash expands into other words`);
  const program = first.value;
  const name = program.slice(program.lastIndexOf('/') + 1);
  const own = (...reason: string[]): Reading => never(`\`${name}\` ${reason.join(' ')}`, [quoteWords([program])]);

  if (PRIVILEGED.has(name)) return own('runs a command with elevated privileges');
  const commandOption = findCommandOption(name, words);
  if (commandOption !== undefined) return never(`\`${commandOption.option}\` ${commandOption.reason}`, [quoteWords([program])]);
  if (ASSIGNING_BUILTINS.has(name)) {
    const variable = words.slice(1).map((word) => word.value ?? '').find((value) => /^[A-Za-z_]\w*$/.test(value) && changesWhatRuns(value));
    if (variable !== undefined) return own(`sets ${variable}, which changes which program runs or what it loads`);
  }
  if (has(RUNS_ARGUMENTS, name)) return own(RUNS_ARGUMENTS[name]);
  if (name === 'eval') {
    const args = words.slice(1);
    if (args.some((word) => word.value === undefined)) return own('runs text that comes from an expansion');
    return ctx.readScript(args.map((word) => word.value).join(' '), 'eval');
  }
  if (has(WRAPPERS, name)) return readWrapper(program, name, words, ctx);
  if (POSIX_SHELLS.has(name) || OTHER_SHELLS.has(name)) return readShell(program, name, words, ctx);
  const interpreter = interpreterSpec(name);
  if (interpreter !== undefined) return readInterpreter(program, interpreter, words, ctx);
  if (name === 'find') return readFind(program, words, (inner) => readSegment(inner, { ...ctx, stdinFed: false, underXargs: false }));
  if (/^[gmn]?awk$/.test(name)) return readAwk(program, words);
  if (name === 'sed' || name === 'gsed') return readSed(program, words);
  if (name === 'tee') return readTee(program, words);
  if (has(TOOLS, name)) return readTool(words, 1, TOOLS[name], [program], ctx);
  return { signatures: [quoteWords([program])] };
}

/** An option anywhere among the words that runs a command given as its value, named with its program (`git rebase -x`). */
function findCommandOption(name: string, words: ShellWord[]): { option: string; reason: string } | undefined {
  const keys = [name, ...words.slice(1).map((word) => `${name} ${word.value ?? ''}`)].filter((key) => has(COMMAND_OPTIONS, key));
  for (const key of keys) {
    const options = COMMAND_OPTIONS[key];
    for (const word of words.slice(1)) {
      const value = word.value ?? '';
      if (value === '--') break;
      const short = value.startsWith('--') ? [] : [value.slice(0, 2), value.slice(0, 3)];
      const option = [optionName(value), ...short].find((candidate) => candidate.length > 1 && has(options, candidate));
      if (option !== undefined) return { option: `${key} ${option}`, reason: options[option] };
    }
  }
  return undefined;
}

/** Whether `table` has its own entry `key` (not one inherited from Object). */
function has(table: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(table, key);
}

/** Signatures of `inner` run through `prefix` (`npx` + `jest` = `npx jest`). */
function prefixed(prefix: string[], inner: Reading): Reading {
  const head = quoteWords(prefix);
  const signatures = inner.signatures.length === 0 ? [head] : inner.signatures.map((signature) => `${head} ${signature}`);
  return inner.never === undefined ? { signatures } : { signatures, never: inner.never };
}

/** Name of an option word: `--file=x` is `--file`. */
function optionName(value: string): string {
  const eq = value.indexOf('=');
  return value.startsWith('--') && eq > 0 ? value.slice(0, eq) : value;
}

interface OptionSpec {
  valueOptions?: string[];
  neverOptions?: Record<string, string>;
  plusOptions?: boolean;
}

/** Skips the options from `start`; gives the index of the first operand, or why an option can never be approved. */
function skipOptions(words: ShellWord[], start: number, spec: OptionSpec): { next: number } | { option: string; why: string } {
  let i = start;
  while (i < words.length) {
    const value = words[i].value;
    if (value === undefined) break;
    if (value === '--') return { next: i + 1 };
    const isOption = (value.startsWith('-') && value.length > 1) || (spec.plusOptions === true && value.startsWith('+'));
    if (!isOption) break;
    const name = optionName(value);
    const neverOptions = spec.neverOptions ?? {};
    const attached = !value.startsWith('--') && value.length > 2 ? value.slice(0, 2) : undefined;
    for (const candidate of [name, attached]) {
      if (candidate !== undefined && has(neverOptions, candidate)) {
        return { option: candidate, why: neverOptions[candidate] };
      }
    }
    i += spec.valueOptions?.includes(name) === true && !value.includes('=') ? 2 : 1;
  }
  return { next: i };
}

/** A program with subcommands: `git commit`, `docker compose up`, `npm run build`, `npx jest`. */
function readTool(words: ShellWord[], start: number, spec: ToolSpec, signature: string[], ctx: SegmentContext): Reading {
  let i = start;
  let current = spec;
  let remaining = spec.depth ?? 1;
  let optionsAllowed = true;
  for (;;) {
    if (optionsAllowed || current.valueOptions !== undefined) {
      const skipped = skipOptions(words, i, current);
      if ('why' in skipped) return never(`\`${quoteWords([...signature, skipped.option])}\` ${skipped.why}`, [quoteWords(signature)]);
      i = skipped.next;
    }
    if (current.command === true) return prefixed(signature, readSegment(words.slice(i), { ...ctx, underXargs: false }));
    const word = words[i];
    if (word === undefined) break;
    if (word.value === undefined) {
      return never(`the word after \`${quoteWords(signature)}\` comes from an expansion (${word.text}), so what it does is not known in advance`, [quoteWords(signature)]);
    }
    if (current.skipAssignments === true && word.value.includes('=')) {
      if (/^(SHELL|\.SHELLFLAGS|MAKE)=/.test(word.value)) return never(`\`${quoteWords(signature)}\` is told which shell or program to run (${word.text})`, [quoteWords(signature)]);
      i++;
      continue;
    }
    if (word.pattern) return never(`the word after \`${quoteWords(signature)}\` is a pattern bash expands (${word.text}), so what it does is not known in advance`, [quoteWords(signature)]);
    if (!SUBCOMMAND.test(word.value)) break;
    signature.push(word.value);
    i++;
    const nested = current.nested?.[word.value];
    if (nested === 'script') return scriptOf(words, i, signature);
    if (nested === 'command') {
      const skipped = skipOptions(words, i, {});
      return prefixed(signature, readSegment(words.slice('next' in skipped ? skipped.next : i), { ...ctx, underXargs: false }));
    }
    if (nested !== undefined && 'never' in nested) return never(`\`${quoteWords(signature)}\` ${nested.never}`, [quoteWords(signature)]);
    if (nested !== undefined) {
      current = nested;
      remaining = nested.depth ?? 1;
    } else if (--remaining <= 0) break;
    optionsAllowed = false;
  }
  if (ctx.underXargs === true && signature.length === 1) {
    return never(`what \`${quoteWords(signature)}\` does comes from the input of xargs`, [quoteWords(signature)]);
  }
  return { signatures: [quoteWords(signature)] };
}

/** `deno run x.ts`, `go run ./cmd/tool`: the first operand after the options is part of the signature. */
function scriptOf(words: ShellWord[], start: number, signature: string[]): Reading {
  let i = start;
  while (i < words.length && words[i].value !== undefined && words[i].value!.startsWith('-') && words[i].value !== '-') {
    if (words[i].value === '--') {
      i++;
      break;
    }
    i++;
  }
  const operand = words[i];
  if (operand === undefined) return { signatures: [quoteWords(signature)] };
  if (operand.value === undefined || operand.pattern) {
    return never(`what \`${quoteWords(signature)}\` runs is named by an expansion or pattern (${operand.text})`, [quoteWords(signature)]);
  }
  return { signatures: [quoteWords([...signature, operand.value])] };
}

/** env, timeout, nice, nohup, time, xargs…: the signature is the command they run. */
function readWrapper(program: string, name: string, words: ShellWord[], ctx: SegmentContext): Reading {
  const spec = WRAPPERS[name];
  const self = [quoteWords([program])];
  const skipped = skipOptions(words, 1, spec);
  if ('why' in skipped) return never(`\`${name} ${skipped.option}\` ${skipped.why}`, self);
  if (spec.lookupOptions !== undefined && words.slice(1, skipped.next).some((word) => spec.lookupOptions!.includes(word.value ?? ''))) {
    return { signatures: self };
  }
  let i = skipped.next + (spec.operands ?? 0);
  if (spec.assignments === true) {
    for (; i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i].value ?? ''); i++) {
      const variable = words[i].value!.slice(0, words[i].value!.indexOf('='));
      if (changesWhatRuns(variable)) return never(`\`${name}\` sets ${variable}, which changes what runs`, self);
    }
  }
  const rest = words.slice(i);
  if (rest.length === 0) return name === 'exec' ? { signatures: [] } : { signatures: self };
  return readSegment(rest, { ...ctx, underXargs: name === 'xargs' ? true : ctx.underXargs, stdinFed: name === 'xargs' ? false : ctx.stdinFed });
}

/** sh/bash `-c 'script'` is read as a script of its own; `bash file.sh` is signed with its file. */
function readShell(program: string, name: string, words: ShellWord[], ctx: SegmentContext): Reading {
  let i = 1;
  let inline = false;
  let fromStdin = false;
  while (i < words.length) {
    const value = words[i].value;
    if (value === undefined) break;
    if (value === '--' || value === '-') {
      i++;
      break;
    }
    if (/^[-+][oO]$/.test(value) || value === '--rcfile' || value === '--init-file') i += 2;
    else if (value.startsWith('--')) i++;
    else if (/^[-+][A-Za-z]+$/.test(value)) {
      if (value.startsWith('-') && value.includes('c')) inline = true;
      if (value.startsWith('-') && value.includes('s')) fromStdin = true;
      i += /[oO]$/.test(value) ? 2 : 1; // `-euo pipefail`: the last letter takes the next word
    } else break;
  }
  const operand = words[i];
  if (inline) {
    const via = `${name} -c`;
    if (OTHER_SHELLS.has(name)) return never(`\`${via}\` runs a ${name} script, which these rules do not read`, [quoteWords([program])]);
    if (ctx.underXargs === true) return never(`xargs feeds its input into the script of \`${via}\``, [quoteWords([program])]);
    if (operand === undefined) return never(`\`${via}\` is given no script`, [quoteWords([program])]);
    if (operand.value === undefined) return never(`the script of \`${via}\` comes from an expansion (${operand.text})`, [quoteWords([program])]);
    return ctx.readScript(operand.value, via);
  }
  return scriptOperand(program, operand, fromStdin, ctx);
}

/** The script an interpreter or shell runs is part of its signature; none means it reads standard input. */
function scriptOperand(program: string, operand: ShellWord | undefined, fromStdin: boolean, ctx: SegmentContext): Reading {
  const name = program.slice(program.lastIndexOf('/') + 1);
  const self = [quoteWords([program])];
  if (operand === undefined || fromStdin || operand.value === '-') {
    if (ctx.underXargs === true) return never(`the script \`${name}\` runs comes from the input of xargs`, self);
    if (ctx.stdinFed || fromStdin || operand !== undefined || POSIX_SHELLS.has(name) || OTHER_SHELLS.has(name)) {
      return never(`\`${name}\` runs the program it reads from standard input`, self);
    }
    return { signatures: self };
  }
  if (operand.value === undefined || operand.pattern) return never(`the script \`${name}\` runs is named by an expansion or pattern (${operand.text})`, self);
  return { signatures: [quoteWords([program, operand.value])] };
}

/** python, node, perl, ruby…: `-c`/`-e` code never; `-m module` and the script file are part of the signature. */
function readInterpreter(program: string, spec: InterpreterSpec, words: ShellWord[], ctx: SegmentContext): Reading {
  const self = [quoteWords([program])];
  let i = 1;
  while (i < words.length) {
    const value = words[i].value;
    if (value === undefined || value === '-' || !value.startsWith('-')) break;
    if (value === '--') {
      i++;
      break;
    }
    const name = optionName(value);
    const cluster = /^-[A-Za-z]{2,}$/.test(value) ? [...value.slice(1)].map((letter) => `-${letter}`) : [];
    const code = spec.codeOptions.find((option) => option === name || cluster.includes(option));
    if (code !== undefined) return never(`\`${quoteWords([program, code])}\` runs code given on its command line`, self);
    if (spec.preloadOptions?.includes(name) === true) return never(`\`${quoteWords([program, name])}\` loads code named on its command line`, self);
    if (spec.moduleOption !== undefined && (name === spec.moduleOption || value.startsWith(spec.moduleOption))) {
      const attached = value.length > spec.moduleOption.length ? value.slice(spec.moduleOption.length) : undefined;
      const module = attached ?? words[i + 1]?.value;
      if (module === undefined) return never(`the module \`${quoteWords([program, spec.moduleOption])}\` runs is not given or comes from an expansion`, self);
      const rest = words.slice(attached === undefined ? i + 2 : i + 1);
      const moduleWord: ShellWord = { text: module, value: module, pattern: false };
      const tool = has(TOOLS, module) ? TOOLS[module] : undefined;
      if (tool !== undefined) return readTool([moduleWord, ...rest], 1, tool, [program, spec.moduleOption, module], ctx);
      return { signatures: [quoteWords([program, spec.moduleOption, module])] };
    }
    const mode = spec.modeOptions?.[name];
    if (mode !== undefined) {
      const modeValue = mode === 1 ? words[i + 1]?.value : undefined;
      if (mode === 1 && modeValue === undefined) return never(`what \`${quoteWords([program, name])}\` runs comes from an expansion`, self);
      return { signatures: [quoteWords(modeValue === undefined ? [program, name] : [program, name, modeValue])] };
    }
    i += spec.valueOptions?.includes(name) === true && !value.includes('=') ? 2 : 1;
  }
  return scriptOperand(program, words[i], false, ctx);
}
