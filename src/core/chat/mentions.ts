// `@server:uri` mentions in a chat prompt: each names a resource of one server (`@docs:file:///guide.md`,
// `@everything:demo://resource/static/document/architecture.md`). Parsing never throws: text that is
// not a mention stays text.

/** One mention, with where it stands in the prompt (UTF-16 offsets, end exclusive). */
export interface ResourceMention {
  readonly server: string;
  readonly uri: string;
  readonly start: number;
  readonly end: number;
}

// A mention starts the prompt or follows white space or an opening bracket, so `me@host:x` is not one;
// the server name is what configurations allow; the URI has a scheme. `<…>` around the URI lets it
// hold spaces.
const MENTION = /(^|[\s([{])@([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:<([^<>\n]+)>|([A-Za-z][A-Za-z0-9+.-]*:\S+))/g;
/** Punctuation that ends a sentence rather than the URI. */
const TRAILING = /[.,;:!?'"»”’)\]}>]+$/;

/** Every mention in `prompt`, in order. */
export function parseMentions(prompt: string): ResourceMention[] {
  const found: ResourceMention[] = [];
  for (const match of prompt.matchAll(MENTION)) {
    const [whole, before, server, bracketed, bare] = match;
    const start = (match.index ?? 0) + before.length;
    let uri = bracketed?.trim() ?? bare;
    let end = (match.index ?? 0) + whole.length;
    if (bracketed === undefined) {
      const trimmed = trimTrailing(uri);
      end -= uri.length - trimmed.length;
      uri = trimmed;
    }
    if (uri === '' || !/^[A-Za-z][A-Za-z0-9+.-]*:./.test(uri)) continue;
    found.push({ server, uri, start, end });
  }
  return found;
}

/** Strips sentence punctuation after a URI, keeping a closing bracket that has its opening one inside. */
function trimTrailing(uri: string): string {
  let result = uri.replace(TRAILING, '');
  const tail = uri.slice(result.length);
  // `(see @docs:https://x/a_(b))`: give back closing brackets the URI itself opened.
  for (const ch of tail) {
    const open = ch === ')' ? '(' : ch === ']' ? '[' : ch === '}' ? '{' : undefined;
    if (open === undefined || count(result, open) <= count(result, ch)) break;
    result += ch;
  }
  return result;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}

/** The prompt with every mention replaced by `replace(mention)` (e.g. a short label for the model). */
export function replaceMentions(prompt: string, mentions: readonly ResourceMention[], replace: (mention: ResourceMention) => string): string {
  let result = '';
  let at = 0;
  for (const mention of [...mentions].sort((a, b) => a.start - b.start)) {
    if (mention.start < at) continue;
    result += prompt.slice(at, mention.start) + replace(mention);
    at = mention.end;
  }
  return result + prompt.slice(at);
}
