// Reads a markdown file the way a renderer does (markdown-it), for the documentation tests: the anchors
// its headings get and the links and images it holds. A link inside a code span or block is no link.
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt();

export interface MarkdownLink {
  /** The href (a link) or src (an image) as written. */
  target: string;
  /** The 1-based line of the paragraph, list item or table row the link is in. */
  line: number;
}

export interface MarkdownFacts {
  /** The anchor of every heading, as GitHub makes them (a repeated heading gets -1, -2…). */
  anchors: Set<string>;
  links: MarkdownLink[];
}

/** GitHub's anchor for a heading's text: lower case, punctuation and symbols dropped, spaces as hyphens. */
export function headingAnchor(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The headings' anchors and the links of a markdown text. */
export function readMarkdown(text: string): MarkdownFacts {
  const tokens = markdown.parse(text, {});
  const anchors = new Set<string>();
  const links: MarkdownLink[] = [];
  const seen = new Map<string, number>();
  let line = 1; // a table cell's inline token has no map of its own: the row's is the nearest before it
  tokens.forEach((token, index) => {
    if (token.map) line = token.map[0] + 1;
    if (token.type === 'heading_open') {
      const words = (tokens[index + 1]?.children ?? [])
        .filter((child) => child.type === 'text' || child.type === 'code_inline')
        .map((child) => child.content)
        .join('');
      const base = headingAnchor(words);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    if (token.type !== 'inline') return;
    for (const child of token.children ?? []) {
      const target = child.type === 'link_open' ? child.attrGet('href') : child.type === 'image' ? child.attrGet('src') : null;
      if (target !== null) links.push({ target, line });
    }
  });
  return { anchors, links };
}
