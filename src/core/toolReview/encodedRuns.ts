// Text hidden in base64 or hex. A model decodes `SWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnM=` on its
// own when a page asks it to, so the scan reads such runs decoded, as the model would. Only runs that
// decode to readable text are kept: a hash, a key or an image decodes to bytes that are not UTF-8
// text, and is left as it is.

/** Base64 (standard or URL-safe) runs long enough to hide a sentence. */
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,}={0,2}/g;
/** Hex runs (an even number of digits, optionally `\x`-prefixed or space-separated bytes). */
const HEX_RUN = /(?<![0-9A-Za-z])(?:(?:\\x|0x)?[0-9A-Fa-f]{2}[ :]?){12,}/g;
/** At most this many characters of encoded runs are decoded per text (a page of images stays cheap). */
const DECODE_BUDGET = 400_000;
/** A run longer than this is data, not a sentence to read. */
const MAX_RUN = 20_000;

const decoder = new TextDecoder('utf-8', { fatal: true });
/** Control characters other than tab, line feed and carriage return, and the replacement character. */
const CONTROL = /(?![\t\n\r])\p{Cc}|\ufffd/u;

/** Whether decoded text reads as text: no control characters, mostly letters, digits, blanks and punctuation. */
function readable(text: string): boolean {
  if (text.length < 8 || CONTROL.test(text)) return false;
  const letters = text.match(/[\p{L}\p{N}\s]/gu)?.length ?? 0;
  return letters / Array.from(text).length >= 0.75 && /\p{L}{3}/u.test(text);
}

function utf8(bytes: Uint8Array): string | undefined {
  try { return decoder.decode(bytes); } catch { return undefined; }
}

function fromBase64(run: string): string | undefined {
  const standard = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return undefined;
  let binary: string;
  try { binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4)); } catch { return undefined; }
  return utf8(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
}

function fromHex(run: string): string | undefined {
  const digits = run.replace(/\\x|0x|[ :]/gi, '');
  if (digits.length % 2 !== 0) return undefined;
  const bytes = new Uint8Array(digits.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return utf8(bytes);
}

/** The readable texts that base64 and hex runs in `text` decode to, in order (runs inside them once more). */
export function decodedRuns(text: string, depth = 2): string[] {
  const found: string[] = [];
  let budget = DECODE_BUDGET;
  const visit = (source: string, level: number): void => {
    for (const [regex, decode] of [[BASE64_RUN, fromBase64], [HEX_RUN, fromHex]] as const) {
      for (const match of source.matchAll(regex)) {
        const run = match[0].trim();
        if (run.length > MAX_RUN || budget < run.length) continue;
        // A word made of letters only (an identifier in camel case) is not worth a decode unless it is long.
        if (regex === BASE64_RUN && /^[A-Za-z]+$/.test(run) && run.length < 40) continue;
        budget -= run.length;
        const decoded = decode(run);
        if (decoded === undefined || !readable(decoded)) continue;
        found.push(decoded);
        if (level > 1) visit(decoded, level - 1);
      }
    }
  };
  visit(text, depth);
  return found;
}
