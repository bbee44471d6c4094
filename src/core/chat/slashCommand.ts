// `/mcp__<server>__<prompt> args…` in an `@mcp` request: which MCP prompt to run and its arguments,
// positional or `key=value`, with "double" or 'single' quotes around values that hold spaces.

/** A parsed slash command. */
export interface SlashCommand {
  /** The command's name without the slash, e.g. `mcp__everything__args-prompt`. */
  readonly name: string;
  readonly positional: readonly string[];
  readonly named: Readonly<Record<string, string>>;
  /** Why the arguments could not be read (an unclosed quote); the command itself was recognized. */
  readonly error?: string;
}

const COMMAND = /^\s*\/([A-Za-z0-9_-]+)(?=\s|$)/;

/** The slash command at the start of `prompt`, or undefined when it does not start with one. */
export function parseSlashCommand(prompt: string): SlashCommand | undefined {
  const match = COMMAND.exec(prompt);
  if (!match) return undefined;
  const rest = prompt.slice(match[0].length);
  const words = splitWords(rest);
  const positional: string[] = [];
  const named: Record<string, string> = {};
  for (const word of words.words) {
    const eq = /^([A-Za-z_][A-Za-z0-9_.-]*)=/.exec(word.text);
    // `key=value` names an argument only when the key was written bare (not inside quotes).
    if (eq && !word.quotedKey) named[eq[1]] = word.text.slice(eq[0].length);
    else positional.push(word.text);
  }
  return { name: match[1], positional, named, ...(words.error ? { error: words.error } : {}) };
}

interface Word { text: string; quotedKey: boolean }

/** Splits on white space; quotes group, a backslash escapes the next character inside double quotes. */
function splitWords(text: string): { words: Word[]; error?: string } {
  const words: Word[] = [];
  let current: Word | undefined;
  let quote: '"' | "'" | undefined;
  let sawEquals = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) { quote = undefined; continue; }
      if (ch === '\\' && quote === '"' && i + 1 < text.length) { current!.text += text[++i]; continue; }
      current!.text += ch;
      continue;
    }
    if (/\s/.test(ch)) {
      if (current) words.push(current);
      current = undefined;
      sawEquals = false;
      continue;
    }
    current ??= { text: '', quotedKey: false };
    if (ch === '"' || ch === "'") {
      if (!sawEquals) current.quotedKey = true;
      quote = ch;
      continue;
    }
    if (ch === '=') sawEquals = true;
    current.text += ch;
  }
  if (current) words.push(current);
  return quote ? { words, error: `a ${quote === '"' ? 'double' : 'single'} quote is not closed` } : { words };
}

/**
 * The prompt's arguments from a parsed command: named ones as given, positional ones in the order of
 * the prompt's declared arguments (skipping those already named). Extra positional values are reported.
 */
export function bindPromptArguments(command: SlashCommand, declared: readonly { name: string; required?: boolean }[]): { args: Record<string, string>; missing: string[]; extra: string[]; unknown: string[] } {
  const args: Record<string, string> = {};
  const names = new Set(declared.map((d) => d.name));
  const unknown = Object.keys(command.named).filter((key) => !names.has(key));
  for (const [key, value] of Object.entries(command.named)) if (names.has(key)) args[key] = value;
  const open = declared.filter((d) => !(d.name in args));
  const extra: string[] = [];
  command.positional.forEach((value, i) => {
    const target = open[i];
    if (target) args[target.name] = value;
    else extra.push(value);
  });
  const missing = declared.filter((d) => d.required && !(d.name in args)).map((d) => d.name);
  return { args, missing, extra, unknown };
}
