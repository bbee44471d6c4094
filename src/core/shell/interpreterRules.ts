// How an interpreter's command line is read for its signature: every option must be one the shell table
// lists (core/shell/programs.ts), in every spelling bash passes it — `-c CODE`, `'-cCODE'`, clusters such
// as `-Bc`, `--eval=CODE`, `-Mmod;CODE` — and one that runs or loads code refuses auto-approval. An option
// the table does not list is not understood, so it refuses too.
import type { InterpreterSpec } from './programs';
import type { ShellWord } from './words';
import { never, quoteWords, type Reading } from './reading';

/** What reading the interpreter's options found: the signature, or where its script or module starts. */
export type InterpreterStart =
  | { kind: 'reading'; reading: Reading }
  | { kind: 'module'; module: string; rest: ShellWord[]; signature: string[] }
  | { kind: 'script'; index: number; signature: string[] };

/** Reads the options of `program` (words[0]) up to its script, module or mode. */
export function readInterpreterOptions(program: string, spec: InterpreterSpec, words: ShellWord[]): InterpreterStart {
  const self = [quoteWords([program])];
  const signature = [program];
  const refuse = (reason: string): InterpreterStart => ({ kind: 'reading', reading: never(reason, self) });
  let mode: string[] | undefined;
  let i = 1;
  while (i < words.length) {
    const word = words[i];
    const value = word.value;
    if (value === undefined) {
      // An expansion where options are read may become any option, `-c CODE` included.
      if (mode !== undefined || word.prefix?.startsWith('-') === true) return refuse(`\`${word.text}\` may expand into an option of \`${program}\` that runs code`);
      break;
    }
    if (value === '-' || !value.startsWith('-')) break;
    if (value === '--') {
      i++;
      break;
    }
    const consumed = value.startsWith('--') ? longOption(value, words[i + 1]) : shortCluster(value, words[i + 1]);
    const step = consumed(spec);
    if ('refusal' in step) return refuse(`\`${quoteWords([program, step.option])}\` ${step.refusal}`);
    if (step.module !== undefined) {
      if (step.moduleValue === undefined) return refuse(`the module \`${quoteWords([program, step.module])}\` runs is not given or comes from an expansion`);
      return { kind: 'module', module: step.moduleValue, rest: words.slice(i + step.words), signature: [...signature, step.module, step.moduleValue] };
    }
    if (step.signed !== undefined) signature.push(...step.signed);
    if (step.mode !== undefined) mode = step.mode;
    i += step.words;
  }
  if (mode !== undefined) {
    // The files `node --test` is given, and the words after `node --run NAME`, are what it runs: they
    // join the signature, as a plain run's script does.
    const rest = words.slice(i);
    const loose = rest.find((word) => word.value === undefined || word.pattern);
    if (loose !== undefined) return refuse(`\`${loose.text}\` names what \`${quoteWords([program, ...mode])}\` runs by an expansion or pattern`);
    return { kind: 'reading', reading: { signatures: [quoteWords([...signature, ...mode, ...rest.map((word) => word.value ?? '')])] } };
  }
  return { kind: 'script', index: i, signature };
}

type Step =
  | { refusal: string; option: string }
  | { words: number; signed?: string[]; mode?: string[]; module?: string; moduleValue?: string };

type Consume = (spec: InterpreterSpec) => Step;

const RUNS_CODE = 'runs code given on its command line';
const LOADS_CODE = 'loads code named on its command line';

/** `--name`, `--name=value` or `--name value`. */
function longOption(value: string, next: ShellWord | undefined): Consume {
  const eq = value.indexOf('=');
  const name = eq > 0 ? value.slice(0, eq) : value;
  const attached = eq > 0 ? value.slice(eq + 1) : undefined;
  return (spec) => {
    const taken = attached !== undefined ? 1 : 2;
    const optionValue = attached ?? next?.value;
    if (spec.code.includes(name)) return { refusal: RUNS_CODE, option: name };
    if (spec.preload.includes(name)) return { refusal: LOADS_CODE, option: name };
    const mode = spec.modes?.[name];
    if (mode !== undefined) {
      if (mode === 0) return { words: 1, mode: [name] };
      if (optionValue === undefined) return { refusal: 'is given a value that comes from an expansion', option: name };
      return { words: taken, mode: [name, optionValue] };
    }
    if (spec.signed?.includes(name) === true) {
      if (optionValue === undefined) return { refusal: 'is given a value that comes from an expansion', option: name };
      return { words: taken, signed: attached !== undefined ? [value] : [name, optionValue] };
    }
    if (spec.values?.includes(name) === true) return { words: taken };
    if (spec.flags.includes(name) && attached === undefined) return { words: 1 };
    return { refusal: 'is an option these rules do not know, so what it does to the program is not known', option: name };
  };
}

/** `-x`, a cluster `-Bu`, or a short option with its value attached (`-cCODE`, `-Mmod`) or next. */
function shortCluster(value: string, next: ShellWord | undefined): Consume {
  return (spec) => {
    for (let k = 1; k < value.length; k++) {
      const option = `-${value[k]}`;
      const rest = value.slice(k + 1);
      const optionValue = rest !== '' ? rest : next?.value;
      const taken = rest !== '' ? 1 : 2;
      if (spec.code.includes(option)) return { refusal: RUNS_CODE, option };
      if (spec.preload.includes(option)) return { refusal: LOADS_CODE, option };
      if (option === spec.module) return { words: taken, module: option, moduleValue: optionValue };
      if (spec.signed?.includes(option) === true) {
        if (optionValue === undefined) return { refusal: 'is given a value that comes from an expansion', option };
        return { words: taken, signed: [option, optionValue] };
      }
      if (spec.values?.includes(option) === true) return { words: taken };
      if (!spec.flags.includes(option)) {
        return { refusal: 'is an option these rules do not know, so what it does to the program is not known', option };
      }
      // A flag may carry digits (`perl -l0`, `ruby -W2`), which are its own.
      while (k + 1 < value.length && /\d/.test(value[k + 1])) k++;
    }
    return { words: 1 };
  };
}
