// Characters that could hide text or fake its order, and the one way every surface shows them: as
// escapes (`\n`, `\t`, `\u{202E}`). The trust prompt, the approval card's arguments and its diff all
// use it, so what a person is asked about reads the same everywhere. Pure: the host and the webview
// both import it.

/**
 * Controls, bidi overrides and isolates, zero-width characters, line and paragraph separators,
 * Unicode tags, and the blank letters and fillers that render as nothing.
 */
const HIDDEN_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x001f], [0x007f, 0x009f], [0x00ad, 0x00ad], [0x034f, 0x034f], [0x061c, 0x061c], [0x115f, 0x1160],
  [0x17b4, 0x17b5], [0x180e, 0x180e], [0x200b, 0x200f], [0x2028, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164],
  [0xfeff, 0xfeff], [0xffa0, 0xffa0], [0xfff9, 0xfffb], [0x1d173, 0x1d17a], [0xe0000, 0xe007f],
];

const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Whether one character (a code point) is one that could hide or fake text. */
export function isHiddenCharacter(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return HIDDEN_RANGES.some(([low, high]) => code >= low && code <= high);
}

/** Whether `text` holds a hidden character other than those in `keep`. */
export function hasHiddenCharacters(text: string, keep = ''): boolean {
  for (const ch of text) if (isHiddenCharacter(ch) && !keep.includes(ch)) return true;
  return false;
}

/** `text` with every hidden character shown as `\n`, `\t` or `\u{…}`; the characters in `keep` (say a diff's tabs) stay as they are. */
export function visible(text: string, keep = ''): string {
  if (!hasHiddenCharacters(text, keep)) return text;
  let out = '';
  for (const ch of text) {
    if (keep.includes(ch)) out += ch;
    else if (ESCAPES[ch] !== undefined) out += ESCAPES[ch];
    else if (isHiddenCharacter(ch)) out += `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
    else out += ch;
  }
  return out;
}
