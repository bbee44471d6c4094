// How tool names, descriptions and queries become search terms: names split on `_`, `-`, `.`, `/` and
// camelCase, words lowercased and lightly stemmed, and Chinese, Japanese and Korean text as single
// characters plus bigrams (those scripts put no spaces between words).

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

/** Splits text into raw words: camelCase and separators become breaks; CJK runs stay whole. */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // `HTTPServer` → HTTP Server; a plural of capitals (`PRs`, `URLs`) stays one word.
    .replace(/([A-Z]+)([A-Z][a-z]{2,})/g, '$1 $2');
  return spaced.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

/** The terms of a text: lowercased, stemmed words; CJK runs as characters and bigrams. */
export function tokenize(text: string): string[] {
  return termsOf(text, false);
}

/**
 * The terms that carry meaning for search: tokenize() without English function words ("the", "of",
 * "my"…) and without plain numbers.
 */
export function searchTerms(text: string): string[] {
  return termsOf(text, true);
}

function termsOf(text: string, dropStopWords: boolean): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    if (CJK.test(word)) terms.push(...cjkTerms(word));
    else {
      const lower = word.toLowerCase();
      // A number in a need ("issue 17", "port 8080") is a value to pass, not a word of what the tool does.
      if (!dropStopWords || !(STOP_WORDS.has(lower) || /^\d+$/.test(lower))) terms.push(stem(lower));
    }
  }
  return terms.filter((term) => term.length > 0);
}

/** Whether a lowercased word is an English function word (see STOP_WORDS). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * English function words: they say nothing about what a tool does, yet in a short field such as a
 * tool name (`API-retrieve-a-page`, `browser_wait_for`) they are rare enough to outweigh real matches.
 * Words that do name an action or a scope ("all", "new", "open", "up") are not here.
 */
const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'nor', 'of', 'in', 'on', 'at', 'to', 'for', 'from', 'by', 'with', 'as', 'into', 'onto',
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'it', 'its', 'this', 'that', 'these', 'those',
  'i', 'me', 'my', 'we', 'our', 'us', 'you', 'your', 'he', 'she', 'him', 'her', 'his', 'they', 'them', 'their',
  'what', 'which', 'whose', 'do', 'does', 'did', 'doing', 'can', 'could', 'should', 'would', 'will', 'shall', 'may', 'might', 'must',
  'please', 'so', 'if', 'than', 'then', 'there', 'here', 'about', 'any', 'some', 'just', 'very', 'too', 'also', 'let', 'lets',
  's', 't', 'd', 'll', 're', 've', 'm', 'e', 'g', 'eg', 'ie', 'etc',
]);

/** Characters and bigrams of a CJK run (mixed runs keep their Latin parts as words). */
function cjkTerms(word: string): string[] {
  const terms: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    terms.push(...run);
    for (let i = 0; i + 1 < run.length; i++) terms.push(run[i] + run[i + 1]);
    run = [];
  };
  let latin = '';
  for (const ch of Array.from(word)) {
    if (CJK.test(ch)) {
      if (latin) { terms.push(stem(latin.toLowerCase())); latin = ''; }
      run.push(ch);
    } else {
      flush();
      latin += ch;
    }
  }
  flush();
  if (latin) terms.push(stem(latin.toLowerCase()));
  return terms;
}

/** A light English stemmer: enough that `files`/`file`, `listing`/`list`, `deleted`/`delete` meet. */
export function stem(word: string): string {
  if (word.length <= 2 || /\d/.test(word) || NOT_PLURALS.has(word)) return word;
  return dropFinalE(stripSuffix(word));
}

/** Words that end like plurals but are not (`news` is not several `new`s). */
const NOT_PLURALS: ReadonlySet<string> = new Set([
  'news', 'series', 'species', 'canvas', 'alias', 'atlas', 'bias', 'always', 'kubernetes', 'postgres', 'redis', 'jenkins',
]);

function stripSuffix(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.endsWith('eed') ? word.slice(0, -1) : word.slice(0, -2));
  if (word.endsWith('es') && /(ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** `delete` and `deleted` (→ `delet`) meet when a final silent e goes too. */
function dropFinalE(word: string): string {
  return word.length >= 4 && word.endsWith('e') && !word.endsWith('ee') ? word.slice(0, -1) : word;
}

/** `runn` → `run`, `stopp` → `stop`: a doubled final consonant left by removing a suffix. */
function undouble(word: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(word) && !/(ll|ss|zz)$/.test(word) ? word.slice(0, -1) : word;
}
