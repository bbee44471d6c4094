// The document an app's frame is given: the server's HTML read by a spec-conformant HTML parser
// (parse5, the parsing algorithm browsers implement), with the frame's Content-Security-Policy as the
// first element of its head, and the hashes of the app's inline scripts, which the panel's policy
// lists. The app's HTML is parsed and written out again, never pasted around the policy: nothing it
// holds (an unclosed comment, a `</head>`, a `<plaintext>`) can come before the policy or swallow it.
// A policy element the app brings stays after it: policies only add up, never loosen.
import { createHash } from 'node:crypto';
import type { DefaultTreeAdapterTypes } from 'parse5';

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

/** The frame's document, serialized for `srcdoc`, and what the panel's policy must admit of it. */
export interface FrameDocument {
  readonly html: string;
  /** `'sha256-…'` of each distinct inline script's text, in document order. */
  readonly inlineScriptHashes: readonly string[];
}

/** The CSP hash source of a script's text (SHA-256 of its UTF-8 bytes, as browsers compute it). */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

const isElement = (node: Node): node is Element => 'tagName' in node;
/** The SVG namespace as parse5 gives it to elements (its `html.NS.SVG`, which loads only with the parser). */
const SVG_NS = 'http://www.w3.org/2000/svg';

/** The elements under `node` in document order. A template's content is not the document's, and is not walked. */
function* elements(node: Node): Generator<Element> {
  if (!('childNodes' in node)) return;
  for (const child of node.childNodes) {
    if (!isElement(child)) continue;
    yield child;
    yield* elements(child);
  }
}

/** What a script element runs inline, as a browser hashes it (its child text); undefined for one that names a file (HTML's src, SVG's href). */
function inlineText(script: Element): string | undefined {
  const external = script.namespaceURI === SVG_NS ? 'href' : 'src';
  if (script.attrs.some((a) => a.name === external)) return undefined;
  return script.childNodes.map((child) => (child.nodeName === '#text' ? (child as DefaultTreeAdapterTypes.TextNode).value : '')).join('');
}

/** The frame's document for an app's HTML under the policy text `csp`, with the hashes of its inline scripts. */
export async function frameDocument(appHtml: string, csp: string): Promise<FrameDocument> {
  // The parser loads with the first app shown, not with the chat, which only names apps.
  const { defaultTreeAdapter, html: parse5Html, parse, serialize } = await import('parse5');
  const doc = parse(appHtml);
  const root = doc.childNodes.find(isElement);
  const head = root?.childNodes.find((n): n is Element => isElement(n) && n.tagName === 'head');
  // The parser always makes <html> and <head>: their absence is a parser this code does not know.
  if (head === undefined) throw new Error('the app\'s HTML has no head after parsing');
  const meta = defaultTreeAdapter.createElement('meta', parse5Html.NS.HTML, [
    { name: 'http-equiv', value: 'Content-Security-Policy' },
    { name: 'content', value: csp },
  ]);
  const first = head.childNodes[0];
  if (first === undefined) defaultTreeAdapter.appendChild(head, meta);
  else defaultTreeAdapter.insertBefore(head, meta, first);
  const hashes: string[] = [];
  for (const element of elements(doc)) {
    if (element.tagName !== 'script') continue;
    const text = inlineText(element);
    if (text === undefined) continue;
    const hash = scriptHash(text);
    if (!hashes.includes(hash)) hashes.push(hash);
  }
  // A srcdoc document is never in quirks mode; a doctype says so to every later reader of the text too.
  const doctype = doc.childNodes.some((n) => n.nodeName === '#documentType') ? '' : '<!DOCTYPE html>';
  return { html: `${doctype}${serialize(doc)}`, inlineScriptHashes: hashes };
}
