// What the shape of a query's words says beyond the words themselves: `package.json` is a file,
// `#general` a channel, `localhost:3000` a URL, `*.test.ts` a pattern, `src/app` a path,
// `useSyncExternalStore` code, `42` or `#17` a number. Developers write needs this way ("cat
// package.json", "post in #general"), and the tools describe the same things in words.
import { stem } from './tokens';

/** Extensions that make a word a file name (a sample of the common ones, not a list of every type). */
const FILE_EXTENSIONS = new Set([
  'ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'json', 'jsonc', 'md', 'mdx', 'txt', 'py', 'go', 'rs', 'java', 'kt', 'rb', 'php', 'c', 'h',
  'cpp', 'hpp', 'cs', 'swift', 'sh', 'bash', 'zsh', 'ps1', 'yml', 'yaml', 'toml', 'ini', 'cfg', 'conf', 'env', 'xml', 'html', 'htm',
  'css', 'scss', 'sql', 'csv', 'tsv', 'log', 'lock', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'ico', 'pdf', 'doc', 'docx', 'xls',
  'xlsx', 'zip', 'gz', 'tgz', 'tar', 'mp3', 'mp4', 'wav', 'dockerfile', 'vue', 'svelte',
]);
/** Top-level domains that make a dotted word a host name. */
const DOMAINS = new Set(['com', 'org', 'net', 'io', 'dev', 'app', 'ai', 'co', 'edu', 'gov', 'info', 'me', 'so', 'sh', 'cn', 'de', 'uk', 'fr', 'jp']);

/** The hint terms (stemmed, as the index holds them) of a query, each once, in the order found. */
export function queryHints(text: string): string[] {
  const hints = new Set<string>();
  for (const raw of text.split(/\s+/)) {
    const word = raw.replace(/^["'`(<[{]+|["'`)>\]},;:!?.]+$/g, '');
    if (word === '') continue;
    const lower = word.toLowerCase();
    const dotted = /^[\w*-]+(\.[\w*-]+)+$/.test(lower) ? lower.slice(lower.lastIndexOf('.') + 1) : undefined;
    if (/^[a-z][a-z0-9+.-]*:\/\//.test(lower) || /^localhost(:\d+)?(\/|$)/.test(lower) || /^[\w-]+(\.[\w-]+)*:\d+(\/|$)/.test(lower)
      || (dotted !== undefined && DOMAINS.has(dotted) && !/\*/.test(lower))) {
      hints.add('url');
      continue;
    }
    if (dotted !== undefined && FILE_EXTENSIONS.has(dotted)) hints.add('file');
    if (lower.includes('*')) hints.add('pattern');
    if (/[\w.~]\/|\/[\w.]/.test(lower)) hints.add('path');
    if (/^#[a-z][\w-]*$/.test(lower)) hints.add('channel');
    if (/^#?\d+([.,]\d+)?$/.test(lower)) hints.add('number');
    if (/^[a-z]+[A-Z][a-z]+[A-Z]/.test(word)) hints.add('code');
  }
  return [...hints].map((hint) => stem(hint));
}
