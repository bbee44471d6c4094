// The builtins that set shell variables from their input or arguments (`read`, `printf -v`, `mapfile`,
// `wait -p`): which names they would set, and why that keeps a command from being auto-approved.
import { isShellLocalName } from './inertVariables';
import type { ShellWord } from './words';

/**
 * What is wrong with the variables `read`, `printf -v`, `mapfile`… assign: a name that is not a shell
 * variable of the command's own (their values come from input, so no variable of the environment may
 * take them), an array element (its subscript is arithmetic, which can run commands hidden in variables), or a name
 * that comes from an expansion.
 */
export function assignedNames(name: string, words: ShellWord[]): string | undefined {
  // A pattern among its words can expand into `-v NAME` or into names (a file named `PATH` in the
  // workspace), and an expansion where its options are read can become `-v`.
  const pattern = words.slice(1).find((word) => word.pattern);
  if (pattern !== undefined) return `is given ${pattern.text}, a pattern bash expands into words that may become an option or the name of a variable it sets`;
  // `$!`, `$$`, `$?` and `$#` are always one number.
  if (words[1] !== undefined && words[1].value === undefined && !/^"?\$[!$?#]"?$/.test(words[1].text)) return `is given ${words[1].text} where it reads its options, which may become the option that names the variable it sets`;
  // printf and wait assign only to the name after `-v` / `-p`; read also to the array after `-a`; the others to their operands.
  const flag = name === 'printf' ? '-v' : name === 'wait' ? '-p' : undefined;
  const targets = flag !== undefined
    ? words.flatMap((word, i) => (word.value === flag ? [words[i + 1]] : word.value?.startsWith(flag) === true ? [{ ...word, value: word.value.slice(2) }] : []))
    : name === 'read' ? readTargets(words) : words.slice(1);
  for (const word of targets) {
    if (word === undefined) continue;
    if (word.value === undefined) {
      if (flag !== undefined) return `assigns to a variable named by an expansion (${word.text})`;
      return `is given ${word.text}, which may name the variable it assigns`;
    }
    if (word.value.includes('[')) return `assigns to an array element (${word.text}), whose subscript is arithmetic and can run commands hidden in variables`;
    if (/^[A-Za-z_]\w*$/.test(word.value) && !isShellLocalName(word.value)) {
      return `sets ${word.value} from its input, and only lower-case shell variables of the command's own may be set that way`;
    }
  }
  return undefined;
}

/** The names `read` assigns: its operands, and the array its `-a` names (`-aPATH`, `-ra NAME`). */
function readTargets(words: ShellWord[]): Array<ShellWord | undefined> {
  const targets: Array<ShellWord | undefined> = [];
  let i = 1;
  for (; i < words.length; i++) {
    const value = words[i].value ?? '';
    if (value === '--') {
      i++;
      break;
    }
    if (!/^-[A-Za-z]+$/.test(value)) break;
    for (let k = 1; k < value.length; k++) {
      const letter = value[k];
      if (!'adinNptu'.includes(letter)) continue; // -e -r -s take no value
      const rest = value.slice(k + 1);
      const named = rest !== '' ? { ...words[i], value: rest } : words[i + 1];
      if (rest === '') i++;
      if (letter === 'a') targets.push(named);
      break;
    }
  }
  return [...targets, ...words.slice(i)];
}
