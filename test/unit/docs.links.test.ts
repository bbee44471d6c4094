// The README, CONTRIBUTING and the pages under docs/ link each other by relative paths and heading
// anchors; a section moved or renamed without its links leaves a reader at a page that is not there.
// Every link must be one of the forms read here: an https address (not followed), an anchor of the same
// file, or a relative path inside the repository to a file that exists, with an anchor that one of its
// headings has. Any other form (http:, mailto:, an absolute path, a path out of the repository) fails
// and is named.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { headingAnchor, readMarkdown } from './markdownLinks';

const ROOT = path.resolve(__dirname, '../../..');
const DOCS = path.join(ROOT, 'docs');
const pages = (): string[] => fs.readdirSync(DOCS).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`);
const checked = (): string[] => ['README.md', 'CONTRIBUTING.md', ...pages()];
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** What is wrong with one link of `file` (a repository-relative path), or undefined when it resolves. */
function problemOf(file: string, target: string): string | undefined {
  if (/^https:\/\/[^\s/]+/.test(target)) return undefined;
  const hash = target.indexOf('#');
  const pathPart = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  if (pathPart.includes(':') || pathPart.startsWith('/') || pathPart.includes('\\')) return 'is not a form of link these pages use (https, #anchor or a relative path)';
  const resolved = pathPart === '' ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(pathPart));
  const relative = path.relative(ROOT, resolved);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return 'leads out of the repository';
  if (!fs.existsSync(resolved)) return `names ${relative}, which does not exist`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md')) return `has an anchor into ${relative}, which is not markdown`;
  return readMarkdown(fs.readFileSync(resolved, 'utf8')).anchors.has(anchor) ? undefined : `names #${anchor}, which no heading of ${relative} has`;
}

describe('documentation links', () => {
  it('makes heading anchors as GitHub does', () => {
    assert.equal(headingAnchor("Beside VS Code's own MCP support"), 'beside-vs-codes-own-mcp-support');
    assert.equal(headingAnchor('Signing in to remote servers (OAuth)'), 'signing-in-to-remote-servers-oauth');
    assert.equal(headingAnchor('preview: what a file-writing call will change'), 'preview-what-a-file-writing-call-will-change');
    assert.deepEqual([...readMarkdown('# A\n\n## A\n\n`# not a heading`\n').anchors], ['a', 'a-1']);
  });

  it('refuses the link forms it does not know, and links that do not resolve', () => {
    assert.equal(problemOf('README.md', 'https://modelcontextprotocol.io'), undefined);
    assert.equal(problemOf('README.md', 'CONTRIBUTING.md'), undefined);
    assert.match(problemOf('README.md', 'http://example.com') ?? '', /not a form/);
    assert.match(problemOf('README.md', 'mailto:someone@example.com') ?? '', /not a form/);
    assert.match(problemOf('README.md', '/etc/passwd') ?? '', /not a form/);
    assert.match(problemOf('README.md', '../outside.md') ?? '', /out of the repository/);
    assert.match(problemOf('README.md', 'docs/missing.md') ?? '', /does not exist/);
    assert.match(problemOf('README.md', '#no-such-heading') ?? '', /no heading/);
    assert.match(problemOf('README.md', 'package.json#x') ?? '', /not markdown/);
  });

  it('every link and image of the README, CONTRIBUTING and docs/*.md resolves to a file and heading', () => {
    const problems: string[] = [];
    let count = 0;
    for (const file of checked()) {
      for (const { target, line } of readMarkdown(read(file)).links) {
        count += 1;
        const problem = problemOf(file, target);
        if (problem !== undefined) problems.push(`${file}:${line}: ${target} ${problem}`);
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(count > 20, `only ${count} links found: the reader is not seeing them`);
  });

  it('the README links the index of docs/, and the index links every page there', () => {
    const readmeTargets = readMarkdown(read('README.md')).links.map((link) => link.target.split('#')[0]);
    assert.ok(readmeTargets.includes('docs/README.md'), 'the README does not link docs/README.md');
    const indexTargets = new Set(readMarkdown(read('docs/README.md')).links.map((link) => link.target.split('#')[0]));
    const unlinked = pages().map((page) => path.basename(page)).filter((name) => name !== 'README.md' && !indexTargets.has(name));
    assert.deepEqual(unlinked, [], 'pages under docs/ that docs/README.md does not link');
  });
});

describe('README length', () => {
  it('the README is at most 300 lines: the reference lives under docs/', () => {
    const lines = read('README.md').replace(/\n$/, '').split('\n').length;
    assert.ok(lines <= 300, `README.md has ${lines} lines`);
  });
});
