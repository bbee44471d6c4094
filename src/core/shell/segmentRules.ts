// How one simple command (a segment: `git -C x commit -m "…"`) becomes its signatures. A program the
// tables know is signed by the words that select what it does (`git commit`, `npm run build`) plus the
// options that say where or which code runs (`git -C vendor/x status`); a program they do not know, or
// one given as a path (`./env`, `../tools/sh`), is signed by its exact words. Wrappers are unwrapped to
// the command they run; programs that run code from their arguments either unwrap to it (`sh -c '…'`,
// `find -exec`) or can never be auto-approved (`python -c`, `sudo`).
import {
  FOREIGN_SHELLS, interpreterSpec, isElevator, isShell, POSIX_SHELLS, POWERSHELLS, WRAPPERS, type InterpreterSpec,
} from './programs';
import type { ShellWord } from './words';
import { variableProblem } from './inertVariables';
import { assignedNames } from './assigningBuiltins';
import { readInterpreterOptions } from './interpreterRules';
import { has, optionIn, optionName, readWrapperOptions, type OptionGrammar } from './optionWords';
import { grammarAfter, grammarOf, readOptionWords } from './optionSignatures';
import { PLAIN_OPTIONS, WORDS_ONLY } from './plainOptions';
import { readAwk } from './awkScript';
import { readFind } from './findArguments';
import { inputWordsProblem, type InputWords } from './inputWords';
import { readTee } from './teeOperands';
import { readJq } from './jqArguments';
import { readSed } from './sedScript';
import { readSqlite } from './sqliteScript';
import { ASSIGNING_BUILTINS, COMMAND_OPTIONS, PLAIN_PROGRAMS, RUNS_ARGUMENTS, TOOLS, WRITE_OPTIONS, type ToolSpec } from './programTables';
import { never, quoteWords, type Reading } from './reading';

export type { Reading } from './reading';


/** What a segment's reading depends on besides its words. */
export interface SegmentContext {
  /** Its standard input is a pipe or a redirection, so a program reading it reads the data there. */
  stdinFed: boolean;
  /** It runs under xargs, which adds words from its input. */
  underXargs?: boolean;
  /** Some of its words, or words added after them, come from input (xargs, `find -exec … {}`, `read`). */
  inputWords?: InputWords;
  /** Reads a script given as text (`sh -c`, `eval`) with the same rules; `via` names what runs it. */
  readScript(script: string, via: string): Reading;
}

/** Editors that run commands given to them (`ed` from its input, `vim -es -c`, `ex +cmd`, `emacs --eval`). */
const EDITORS = new Set(['ed', 'red', 'ex', 'vi', 'vim', 'nvim', 'view', 'vimdiff', 'gvim', 'rvim', 'emacs']);

/** xargs adds the words it reads after the command's own. */
const XARGS_INPUT: InputWords = { via: 'xargs', atEnd: true, isInput: () => false, isWhole: () => true };

/** `find -exec` puts each file name it finds where `{}` stands, also inside a longer word. */
function foundFiles(via: string): InputWords {
  return { via, atEnd: false, isInput: (word) => (word.value ?? word.text).includes('{}'), isWhole: (word) => word.value === '{}' };
}

/** make variables that choose the shell or the make program itself. */
const MAKE_SHELL = /^(?:SHELL|\.SHELLFLAGS|MAKE|MAKEFLAGS|MFLAGS|GNUMAKEFLAGS|\.RECIPEPREFIX|MAKESHELL)\s*[:+?!]*=/;

/** A subcommand looks like a name: `commit`, `run-script`, `build:prod`; never a path, URL or pattern. */
const SUBCOMMAND = /^[A-Za-z0-9][\w.:+-]*$/;

/** The signatures of one simple command, given its words (program first). */
export function readSegment(words: ShellWord[], given: SegmentContext): Reading {
  if (words.length === 0) return { signatures: [] };
  const first = words[0];
  if (first.value === undefined) return never(`its program name comes from an expansion (${first.text}), so what runs is not known in advance`);
  if (first.pattern) return never(`its program name ${first.text} is a pattern that bash expands into other words`);
  const program = first.value;
  let ctx = given;
  if (ctx.inputWords !== undefined && !has(WRAPPERS, program)) {
    // A wrapper passes the input on to the command it runs; any other program reads it itself.
    const problem = inputWordsProblem(words, ctx.inputWords);
    if (problem !== undefined) return never(problem, [quoteWords([program])]);
    ctx = { ...ctx, inputWords: undefined, underXargs: false };
  }
  // A path names a file, maybe the repository's own: never the wrapper or tool of the same name.
  if (program.includes('/')) return exactWords(words, `\`${program}\` is a file given by its path`);
  const name = program;
  const own = (...reason: string[]): Reading => never(`\`${name}\` ${reason.join(' ')}`, [quoteWords([program])]);

  if (name === 'cd' || name === 'pushd' || name === 'popd') return own('changes the folder where the commands after it run, in a way these rules do not follow');
  if (isElevator(name)) return own('runs a command with elevated privileges');
  const hazard = optionHazard(name, words);
  if (hazard !== undefined) return never(hazard, [quoteWords([program])]);
  if (ASSIGNING_BUILTINS.has(name)) {
    const problem = assignedNames(name, words);
    if (problem !== undefined) return own(problem);
  }
  if (has(RUNS_ARGUMENTS, name)) return own(RUNS_ARGUMENTS[name]);
  if (name === 'eval') {
    const args = words.slice(1);
    if (args.some((word) => word.value === undefined)) return own('runs text that comes from an expansion');
    return ctx.readScript(args.map((word) => word.value).join(' '), 'eval');
  }
  if (has(WRAPPERS, name)) {
    if (WRAPPERS[name].opaque === true) return exactWords(words, `\`${name}\` runs programs of its own`);
    return readWrapper(program, name, words, ctx);
  }
  if (POWERSHELLS.has(name) || name === 'cmd') return own('runs command lines of another shell language, which these rules do not read');
  if (isShell(name)) return readShell(program, name, words, ctx);
  const interpreter = interpreterSpec(name);
  if (interpreter !== undefined) return readInterpreter(program, interpreter, words, ctx);
  if (name === 'find') {
    return readFind(program, words, (inner, via, input) => readSegment(inner, { ...ctx, stdinFed: false, underXargs: false, inputWords: input ? foundFiles(via) : undefined }));
  }
  if (/^[gmn]?awk$/.test(name)) return readAwk(program, words);
  if (name === 'sed' || name === 'gsed') return readSed(program, words);
  if (name === 'jq') return readJq(program, words);
  if (name === 'sqlite3') return readSqlite(program, words, ctx.stdinFed);
  if (EDITORS.has(name)) return own('runs editor commands — from its script options, its configuration files or its standard input — which these rules do not read');
  if (name === 'tee') return readTee(program, words);
  if (name === 'uniq' || name === 'xxd') {
    // Its second operand is an output file (an option's value counts too: asking is the safe side), and
    // a pattern or an unquoted expansion can become two operands (`xxd *` writes the second file).
    // After `--` every word is an operand, one starting with `-` too (`uniq -- in -/../x`).
    const end = words.findIndex((word, k) => k > 0 && word.value === '--');
    const operands = words.slice(1).filter((word, k) => (end > 0 && k + 1 > end) || (k + 1 !== end && !(word.value ?? '').startsWith('-')));
    const spread = operands.find((word) => word.pattern || (word.value === undefined && !/^"[^"]*"$/.test(word.text)));
    if (spread !== undefined) return own(`may be given two operands by ${spread.text}, and writes into the second`);
    if (operands.length > 1) return own(`writes into the file ${operands[operands.length - 1].text}`);
  }
  if (name === 'date') {
    // `date MMDDhhmm` sets the clock; only `+FORMAT` operands and option values are read.
    const setting = words.slice(1).find((word, k) => !(word.value ?? '').startsWith('-') && !(word.value ?? '').startsWith('+') && !/^-[dfr]$|^--(date|file|reference)$/.test(words[k].value ?? ''));
    if (setting !== undefined) return own(`is given ${setting.text}, which may set the system clock`);
  }
  if (has(TOOLS, name)) return readTool(words, 1, TOOLS[name], [program], ctx);
  if (PLAIN_PROGRAMS.has(name)) return readPlain(program, name, words);
  return exactWords(words, `\`${name}\` is not a program these rules know`);
}


/**
 * A program the rules do not read is signed by its exact words, so an "Always allow" covers only what
 * the person saw; a word bash would expand first has no exact form, so the command always asks.
 */
function exactWords(words: ShellWord[], what: string): Reading {
  const fixed: string[] = [];
  for (const word of words) {
    if (word.value === undefined || word.pattern) {
      return never(`${what}, so it is signed by its exact words, and ${word.text} is not a fixed word`, [quoteWords(fixed)]);
    }
    fixed.push(word.value);
  }
  return { signatures: [quoteWords(fixed)] };
}

/**
 * An option anywhere among the words that runs a command given as its value (`git rebase -x`, `rg
 * --pre`) or writes into a file (`git diff --output=F`, `sort -o F`), named with its program; or a word
 * bash expands where such an option could stand.
 */
function optionHazard(name: string, words: ShellWord[]): string | undefined {
  const keys = [name, ...words.slice(1).map((word) => `${name} ${word.value ?? ''}`)];
  const tables: Array<Readonly<Record<string, Readonly<Record<string, string>>>>> = [COMMAND_OPTIONS, WRITE_OPTIONS];
  const options = keys.flatMap((key) => tables.filter((table) => has(table, key)).map((table) => ({ key, options: table[key] })));
  if (options.length === 0) return undefined;
  for (const word of words.slice(1)) {
    const value = word.value ?? word.prefix;
    if (value === '--') break;
    // A glob can match a file the repository named `-oF`; a brace list can spell any option.
    if (value === undefined || (word.value === undefined && !/^--?[\w-]+=/.test(value)) || word.pattern) {
      return `\`${word.text}\` may expand into an option of \`${name}\` that runs a command or writes a file`;
    }
    for (const { key, options: table } of options) {
      const option = optionIn(value, table);
      if (option !== undefined) return `\`${key} ${option}\` ${table[option]}`;
    }
  }
  return undefined;
}

/**
 * A program whose arguments are data: signed by its name and the option words its table does not list
 * (verbatim). Its options beyond the hazard tables only choose what is shown, so an expansion among its
 * words is read as an operand, as before.
 */
function readPlain(program: string, name: string, words: ShellWord[]): Reading {
  if (WORDS_ONLY.has(name)) return { signatures: [quoteWords([program])] };
  const table = has(PLAIN_OPTIONS, name) ? PLAIN_OPTIONS[name] : {};
  const grammar: OptionGrammar = { style: table.style, numbers: table.numbers, flags: table.flags, values: table.valueOptions, optionalValues: table.optionalValues };
  const read = readOptionWords(words, 1, grammar, { all: true, expansionsAreOperands: true });
  if ('why' in read) return never(`\`${quoteWords([program, read.option])}\` ${read.why}`, [quoteWords([program])]);
  return { signatures: [quoteWords([program, ...read.signed])] };
}

/** Signatures of `inner` run through `prefix` (`npx` + `jest` = `npx jest`). */
function prefixed(prefix: string[], inner: Reading): Reading {
  const head = quoteWords(prefix);
  const signatures = inner.signatures.length === 0 ? [head] : inner.signatures.map((signature) => `${head} ${signature}`);
  return inner.never === undefined ? { signatures } : { signatures, never: inner.never };
}

/** A program with subcommands: `git commit`, `docker compose up`, `npm run build`, `npx jest`. */
function readTool(words: ShellWord[], start: number, spec: ToolSpec, signature: string[], ctx: SegmentContext): Reading {
  const self = (): string[] => [quoteWords(signature)];
  const refuse = (read: { option: string; why: string }): Reading => never(`\`${quoteWords([...signature, read.option])}\` ${read.why}`, self());
  const exactOptions = spec.exactOptions ?? [];
  if (exactOptions.length > 0 && words.slice(start).some((word) => exactOptions.includes(optionName(word.value ?? '')))) {
    return exactTail(words, start, signature, [spec], 'is given an option that deletes, overwrites or reaches elsewhere, so it is signed by its exact words');
  }
  const chain: ToolSpec[] = [spec];
  let i = start;
  let current = spec;
  let remaining = spec.depth ?? 1;
  let ended = false;
  for (;;) {
    if (remaining <= 0 && current.command !== true) break;
    const before = readOptionWords(words, i, grammarAfter(chain), { all: false, plusOptions: current.plusOptions });
    if ('why' in before) return refuse(before);
    signature.push(...before.signed);
    if (before.unknown !== undefined) {
      const option = words[before.unknown].value ?? '';
      if (current.command === true) {
        return never(`\`${quoteWords([...signature, option])}\` is an option these rules do not know, so where the command it runs starts is not known`, self());
      }
      // Whether the unknown option takes the next word decides what the subcommand is: all is signed.
      return exactTail(words, before.unknown, signature, chain, `\`${quoteWords(signature)}\` is given ${option}, an option these rules do not know`);
    }
    i = before.next;
    if (current.command === true) return prefixed(signature, readSegment(words.slice(i), { ...ctx, underXargs: false }));
    if (before.ended === true) {
      ended = true;
      break;
    }
    const word = words[i];
    if (word === undefined) break;
    if (word.value === undefined) {
      return never(`the word after \`${quoteWords(signature)}\` comes from an expansion (${word.text}), so what it does is not known in advance`, self());
    }
    if (current.skipAssignments === true && word.value.includes('=')) {
      if (MAKE_SHELL.test(word.value)) return never(`\`${quoteWords(signature)}\` is told which shell or program to run (${word.text})`, self());
      // `make CC=./evil` runs ./evil as the compiler: a variable override is as wide as its words.
      signature.push(word.value);
      i++;
      continue;
    }
    if (word.pattern) return never(`the word after \`${quoteWords(signature)}\` is a pattern bash expands (${word.text}), so what it does is not known in advance`, self());
    if (!SUBCOMMAND.test(word.value)) break;
    signature.push(word.value);
    i++;
    const nested = (current.nested !== undefined && has(current.nested, word.value) ? current.nested[word.value] : undefined) ?? current.otherwise;
    if (nested === 'script') return scriptOf(words, i, signature, [...chain, current.sub ?? {}]);
    if (nested === 'exact') return exactTail(words, i, signature, chain, `\`${quoteWords(signature)}\` sets values, installs, deletes or reaches what its words name`);
    if (nested === 'command') {
      const skipped = readOptionWords(words, i, {}, { all: false });
      return prefixed(signature, readSegment(words.slice('next' in skipped ? skipped.next : i), { ...ctx, underXargs: false }));
    }
    if (nested !== undefined && 'never' in nested) return never(`\`${quoteWords(signature)}\` ${nested.never}`, self());
    current = nested ?? current.sub ?? {};
    chain.push(current);
    remaining = nested !== undefined ? (nested.depth ?? 1) : remaining - 1;
  }
  if (spec.skipAssignments === true) {
    // GNU make reads variables after the target too (`make all CC=./evil`).
    for (const word of words.slice(i)) {
      const value = word.value ?? word.prefix ?? '';
      if (value === '--') break;
      if (MAKE_SHELL.test(value)) return never(`\`${quoteWords(signature)}\` is told which shell or program to run (${word.text})`, self());
      if (/^[A-Za-z_.][\w.]*\s*[:+?!]*=/.test(value)) return never(`\`${quoteWords(signature)}\` is given the variable ${word.text} after its target, which can change the programs its recipes run`, self());
    }
  }
  // After `--` every word is an operand (`npm test -- --watch` passes it to the script).
  const signOperands = chain.some((level) => level.signOperands === true);
  if (ended && signOperands) return exactTail(words, i, signature, chain, `the operands of \`${quoteWords(signature)}\` are what it runs`);
  // The words after a `--` reach the script or the test harness as they are (`cargo test -- --logfile F`
  // truncates F, `npm test -- --watch` is another run): they join the signature verbatim.
  const dash = ended ? i : words.findIndex((word, k) => k >= i && word.value === '--');
  const after = ended ? { signed: [] } : readOptionWords(dash < 0 ? words : words.slice(0, dash), i, grammarAfter(chain), { all: true, signOperands, plusOptions: spec.plusOptions });
  if ('why' in after) return refuse(after);
  signature.push(...after.signed);
  const passed = dash < 0 ? [] : words.slice(ended ? dash : dash + 1);
  if (passed.length > 0) {
    return exactWords([...signature.map((value) => ({ text: value, value, pattern: false })), { text: '--', value: '--', pattern: false }, ...passed], `the words after \`--\` are passed to what \`${quoteWords(signature)}\` runs`);
  }
  if (ctx.underXargs === true && signature.length === 1) {
    return never(`what \`${quoteWords(signature)}\` does comes from the input of xargs`, self());
  }
  return { signatures: [quoteWords(signature)] };
}

/**
 * The words from `start` join the signature exactly (after the words read so far), so an "Always
 * allow" covers only what the person saw; a code-loading option among them still refuses.
 */
function exactTail(words: ShellWord[], start: number, signature: string[], chain: ToolSpec[], what: string): Reading {
  const all = grammarOf(chain);
  const risky = readOptionWords(words, start, { style: all.style, never: all.never }, { all: true, expansionsAreOperands: true });
  if ('why' in risky) return never(`\`${quoteWords([...signature, risky.option])}\` ${risky.why}`, [quoteWords(signature)]);
  const fixed = signature.map((value) => ({ text: value, value, pattern: false }));
  return exactWords([...fixed, ...words.slice(start)], what);
}

/** `deno run x.ts`, `go run ./cmd/tool`: the first operand after the options is part of the signature. */
function scriptOf(words: ShellWord[], start: number, signature: string[], chain: ToolSpec[]): Reading {
  const read = readOptionWords(words, start, grammarOf(chain), { all: false });
  if ('why' in read) return never(`\`${quoteWords([...signature, read.option])}\` ${read.why}`, [quoteWords(signature)]);
  if (read.unknown !== undefined) return exactTail(words, read.unknown, [...signature, ...read.signed], chain, `\`${quoteWords(signature)}\` is given ${words[read.unknown].text}, an option these rules do not know`);
  const operand = words[read.next];
  if (operand === undefined) return { signatures: [quoteWords([...signature, ...read.signed])] };
  if (operand.value === undefined || operand.pattern) {
    return never(`what \`${quoteWords(signature)}\` runs is named by an expansion or pattern (${operand.text})`, [quoteWords(signature)]);
  }
  return { signatures: [quoteWords([...signature, ...read.signed, operand.value])] };
}

/** env, timeout, nice, nohup, time, xargs…: the signature is the command they run. */
function readWrapper(program: string, name: string, words: ShellWord[], ctx: SegmentContext): Reading {
  const spec = WRAPPERS[name];
  const self = [quoteWords([program])];
  const skipped = readWrapperOptions(words, 1, spec);
  if ('why' in skipped) return never(`\`${name} ${skipped.option}\` ${skipped.why}`, self);
  if (spec.lookupOptions !== undefined && skipped.seen.some((option) => spec.lookupOptions!.includes(option))) {
    return { signatures: self };
  }
  let i = skipped.next + (spec.operands ?? 0);
  const operand = words.slice(skipped.next, i).find((word) => word.value === undefined || word.pattern);
  if (operand !== undefined) return never(`the operand ${operand.text} of \`${name}\` comes from an expansion, which can split into more words, a command among them`, self);
  if (spec.assignments === true) {
    for (; i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i].value ?? ''); i++) {
      const assigned = words[i].value!;
      const variable = assigned.slice(0, assigned.indexOf('='));
      const problem = variableProblem(variable, assigned.slice(assigned.indexOf('=') + 1));
      if (problem !== undefined) return never(`\`${name}\` ${problem}`, self);
    }
  }
  const rest = words.slice(i);
  if (rest.length === 0 && ctx.inputWords !== undefined) return never(`\`${ctx.inputWords.via}\` gives \`${name}\` the command it runs, from words nobody saw`, self);
  if (rest.length === 0) return name === 'exec' ? { signatures: [] } : { signatures: self };
  if (name !== 'xargs') return readSegment(rest, ctx);
  return readSegment(rest, { ...ctx, underXargs: true, stdinFed: false, inputWords: XARGS_INPUT });
}

/** Long options of bash that change nothing about which code runs (`--rcfile FILE` is refused: it runs FILE). */
const SHELL_LONG_OPTIONS = new Set(['--login', '--norc', '--noprofile', '--posix', '--noediting', '--restricted', '--verbose', '--version', '--help']);

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
    if (/^-[oO]$/.test(value) && words[i + 1]?.value === 'noexec') return exactWords(words, `\`${name} -o noexec\` only checks the script`);
    if (/^[-+][oO]$/.test(value)) i += 2;
    else if (SHELL_LONG_OPTIONS.has(value)) i++;
    else if (/^[-+][A-Za-z]+$/.test(value)) {
      // `-n` only reads the script: a rule made from a syntax check must not cover running it.
      if (value.startsWith('-') && value.includes('n')) return exactWords(words, `\`${name} -n\` only checks the script`);
      if (value.startsWith('-') && value.includes('c')) inline = true;
      if (value.startsWith('-') && value.includes('s')) fromStdin = true;
      i += /[oO]$/.test(value) ? 2 : 1; // `-euo pipefail`: the last letter takes the next word
    } else if (/^[-+]/.test(value)) {
      return never(`\`${quoteWords([name, value])}\` is an option these rules do not know, so what the shell runs is not known`, [quoteWords([program])]);
    } else break;
  }
  const operand = words[i];
  if (inline) {
    const via = `${name} -c`;
    if (FOREIGN_SHELLS.has(name)) return never(`\`${via}\` runs a ${name} script, which these rules do not read`, [quoteWords([program])]);
    if (ctx.underXargs === true) return never(`xargs feeds its input into the script of \`${via}\``, [quoteWords([program])]);
    if (operand === undefined) return never(`\`${via}\` is given no script`, [quoteWords([program])]);
    if (operand.value === undefined) return never(`the script of \`${via}\` comes from an expansion (${operand.text})`, [quoteWords([program])]);
    return ctx.readScript(operand.value, via);
  }
  return scriptOperand([program], operand, fromStdin, ctx);
}

/** The script an interpreter or shell runs is part of its signature; none means it reads standard input. */
function scriptOperand(head: string[], operand: ShellWord | undefined, fromStdin: boolean, ctx: SegmentContext): Reading {
  const name = head[0];
  const self = [quoteWords(head)];
  if (operand === undefined || fromStdin || operand.value === '-') {
    if (ctx.underXargs === true) return never(`the script \`${name}\` runs comes from the input of xargs`, self);
    if (ctx.stdinFed || fromStdin || operand !== undefined || POSIX_SHELLS.has(name) || FOREIGN_SHELLS.has(name)) {
      return never(`\`${name}\` runs the program it reads from standard input`, self);
    }
    return { signatures: self };
  }
  if (operand.value === undefined || operand.pattern) return never(`the script \`${name}\` runs is named by an expansion or pattern (${operand.text})`, self);
  return { signatures: [quoteWords([...head, operand.value])] };
}

/** python, node, perl, ruby…: code and preload options never; `-m module` and the script file are part of the signature. */
function readInterpreter(program: string, spec: InterpreterSpec, words: ShellWord[], ctx: SegmentContext): Reading {
  const start = readInterpreterOptions(program, spec, words);
  if (start.kind === 'reading') return start.reading;
  if (start.kind === 'module') {
    const { module, rest, signature } = start;
    const hazard = optionHazard(module, [{ text: module, value: module, pattern: false }, ...rest]);
    if (hazard !== undefined) return never(hazard, [quoteWords(signature)]);
    const tool = has(TOOLS, module) ? TOOLS[module] : undefined;
    if (tool !== undefined) return readTool([{ text: module, value: module, pattern: false }, ...rest], 1, tool, signature, ctx);
    // A module these rules have no table for: each of its option words is signed verbatim.
    const read = readOptionWords(rest, 0, {}, { all: true, expansionsAreOperands: true });
    if ('why' in read) return never(`\`${quoteWords([...signature, read.option])}\` ${read.why}`, [quoteWords(signature)]);
    return { signatures: [quoteWords([...signature, ...read.signed])] };
  }
  return scriptOperand(start.signature, words[start.index], false, ctx);
}
