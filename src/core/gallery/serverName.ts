// What the name of a server from an install link or the gallery may hold. The name becomes a key of
// the person's file, a line of every view and a part of tool names, so it is read before anything else:
// only characters that look like what they are pass (ASCII letters and digits, `.`, `_`, `-`, `@`, `+`,
// single spaces between words). Anything else — a bidi control, a zero-width or tag character, a
// variation selector, a control, a look-alike letter — is refused, named by its code point.

const MAX_NAME = 100;
const NAME_CHARACTER = /^[A-Za-z0-9._@+ -]$/u;
/** A title is free text for people: letters, marks, digits, punctuation and symbols of any script, and plain spaces. */
const TITLE_CHARACTER = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const VARIATION_SELECTOR = /^[\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u180B-\u180F]$/u;

/** What the names say a server name may hold, for messages. */
export const SERVER_NAME_CHARACTERS = 'letters A–Z and a–z, digits, ".", "_", "-", "@", "+" and single spaces between words';

/** Why `name` cannot name a server from a link or the gallery, or undefined when it can. */
export function serverNameProblem(name: string): string | undefined {
  const quoted = `"${escaped(name.slice(0, MAX_NAME))}"`;
  const odd = [...name].find((char) => !NAME_CHARACTER.test(char));
  if (odd !== undefined) return `the server name ${quoted} has ${describe(odd)}; a server name holds only ${SERVER_NAME_CHARACTERS}`;
  if (name.trim() === '' || name.length > MAX_NAME) return `the server name ${quoted} is not usable: it must be 1 to ${MAX_NAME} characters`;
  if (name !== name.trim() || name.includes('  ')) return `the server name ${quoted} has a space at its start or end, or two in a row; a server name holds only ${SERVER_NAME_CHARACTERS}`;
  return undefined;
}

/** Why a title shown for a server cannot be, or undefined: it must not hold invisible or control characters. */
export function titleProblem(title: string): string | undefined {
  const odd = [...title].find((char) => !TITLE_CHARACTER.test(char) || VARIATION_SELECTOR.test(char));
  return odd === undefined ? undefined : `the title "${escaped(title.slice(0, MAX_NAME))}" has ${describe(odd)}; a title holds letters, digits, punctuation, symbols and plain spaces`;
}

/** `U+202E (a bidi control, zero-width or other invisible format character)`, or `"/"` for a visible one. */
function describe(char: string): string {
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (/^\p{Cc}$/u.test(char)) return `${code} (a control character)`;
  if (/^\p{Cf}$/u.test(char)) return `${code} (a bidi control, zero-width, tag or other invisible format character)`;
  if (/^[\p{Zl}\p{Zp}]$/u.test(char)) return `${code} (a line or paragraph separator)`;
  if (VARIATION_SELECTOR.test(char)) return `${code} (a variation selector)`;
  if (/^\p{Z}$/u.test(char)) return `${code} (a space other than the plain one)`;
  if (/^[\x21-\x7e]$/.test(char)) return `"${char}" (${code})`;
  return `${code} (a character outside that set)`;
}

/** The text with every character outside printable ASCII as `\u{…}`, so the message itself hides nothing. */
function escaped(text: string): string {
  return [...text].map((char) => (/^[\x20-\x7e]$/.test(char) ? char : `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`)).join('');
}
