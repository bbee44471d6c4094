// The environment variables a command may be given and still be auto-approved: a short allowlist of
// switches that change how output looks (colour, width, locale, time zone) or which mode a tool runs in
// (`CI`, `NODE_ENV`), each with the values it may take. Every other variable can change which program
// runs or what it loads — `MAKEFILES=`, `PERLLIB=`, `KUBECONFIG=`, `UV_CONFIG_FILE=` and names nobody has
// listed yet — so an assignment of it asks, named. Enumerate what is safe, never what is dangerous.

/** One variable that may prefix an auto-approved command, with the values it may take and why it is inert. */
export interface InertVariable {
  name: string;
  /** The values allowed: a plain word of this shape (no expansion). */
  values: RegExp;
  /** What it changes, for the help and the card. */
  effect: string;
}

/** A plain word: letters, digits and `_ . , : @ + -`, no slash (a slash can make a value a path to a file read). */
const WORD = /^[A-Za-z0-9_.,:@+-]*$/;
const SWITCH = /^(?:|0|1|true|false|yes|no|on|off)$/i;
/** A locale name (`en_US.UTF-8`, `C`, `POSIX`): glibc reads a value with a slash as a path to locale files. */
const LOCALE = /^[A-Za-z]{1,8}(?:[_-][A-Za-z0-9]{1,8})?(?:\.[A-Za-z0-9-]{1,20})?(?:@[A-Za-z0-9]{1,20})?$|^(?:C|POSIX|C\.UTF-8)$/;
/** A time-zone name (`UTC`, `Europe/Paris`, `EST5EDT`): relative to the zone database, never `..` or absolute. */
const TIME_ZONE = /^(?!.*\.\.)[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;
const COUNT = /^\d{1,4}$/;

const LOCALE_CATEGORIES = [
  'LC_ALL', 'LC_CTYPE', 'LC_NUMERIC', 'LC_TIME', 'LC_COLLATE', 'LC_MONETARY', 'LC_MESSAGES', 'LC_PAPER', 'LC_NAME',
  'LC_ADDRESS', 'LC_TELEPHONE', 'LC_MEASUREMENT', 'LC_IDENTIFICATION',
];

/** The variables that may prefix an auto-approved command (`NO_COLOR=1 npm test`), and nothing else. */
export const INERT_VARIABLES: readonly InertVariable[] = [
  { name: 'NO_COLOR', values: WORD, effect: 'turns coloured output off' },
  { name: 'FORCE_COLOR', values: /^(?:|0|1|2|3|true|false)$/, effect: 'turns coloured output on' },
  { name: 'CLICOLOR', values: SWITCH, effect: 'turns coloured output on or off' },
  { name: 'CLICOLOR_FORCE', values: SWITCH, effect: 'turns coloured output on' },
  { name: 'COLORTERM', values: /^(?:|truecolor|24bit)$/, effect: 'says the terminal shows 24-bit colour' },
  { name: 'TERM', values: /^(?:dumb|xterm|xterm-256color|screen|screen-256color|tmux-256color|vt100|linux)$/, effect: 'names the terminal type' },
  { name: 'COLUMNS', values: COUNT, effect: 'sets the output width' },
  { name: 'LINES', values: COUNT, effect: 'sets the output height' },
  { name: 'LANG', values: LOCALE, effect: 'sets the language and locale' },
  { name: 'LANGUAGE', values: /^[A-Za-z_:.@-]*$/, effect: 'sets the languages of messages' },
  ...LOCALE_CATEGORIES.map((name) => ({ name, values: LOCALE, effect: 'sets one part of the locale' })),
  { name: 'TZ', values: TIME_ZONE, effect: 'sets the time zone' },
  { name: 'CI', values: SWITCH, effect: 'tells tools they run without a person at a terminal' },
  { name: 'NODE_ENV', values: /^(?:production|development|test)$/, effect: 'selects the mode of a Node program' },
  { name: 'RUST_BACKTRACE', values: /^(?:0|1|full)$/, effect: 'prints a backtrace when a Rust program panics' },
  { name: 'PYTHONUNBUFFERED', values: SWITCH, effect: 'makes Python write output at once' },
  { name: 'PYTHONDONTWRITEBYTECODE', values: SWITCH, effect: 'stops Python writing .pyc files' },
  { name: 'PYTHONHASHSEED', values: /^(?:random|\d{1,10})$/, effect: 'fixes the seed of string hashing' },
];

const BY_NAME = new Map(INERT_VARIABLES.map((variable) => [variable.name, variable]));

/** Whether `name` is one of the inert variables (case matters: `lang` is not `LANG`). */
export function isInertVariable(name: string): boolean {
  return BY_NAME.has(name);
}

/**
 * Why `NAME=value` keeps a command from being auto-approved, or undefined when it may prefix one. `value`
 * is the assignment's literal value, undefined when it comes from an expansion.
 */
export function variableProblem(name: string, value: string | undefined): string | undefined {
  const known = BY_NAME.get(name);
  if (known === undefined) return `sets ${name}, which is not one of the variables known to change nothing about what runs`;
  if (value === undefined) return `sets ${name} to a value that comes from an expansion`;
  if (!known.values.test(value)) return `sets ${name} to a value it is not known to take safely (${JSON.stringify(value)})`;
  return undefined;
}

/**
 * A name a command may set as a shell variable of its own (`x=1; echo "$x"`, `for f in …`, `read -r
 * line`) without it counting as a change of the environment. POSIX leaves names of lower-case letters to
 * applications and gives the environment of utilities upper-case names, so a lower-case name is only
 * inherited by a later program when the parent already exported it under that name; the one family of
 * lower-case names programs do read from the environment (`http_proxy`, `no_proxy`…) is excluded. An
 * upper-case name may already be exported (`PATH`, `MAVEN_OPTS`), so setting it changes what every later
 * program of the same shell inherits: it is an environment change, read by `variableProblem`.
 */
export function isShellLocalName(name: string): boolean {
  return /^[a-z][a-z0-9_]*$/.test(name) && !name.endsWith('_proxy');
}
