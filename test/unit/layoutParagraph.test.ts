// CONTRIBUTING's layout paragraph (the README points to it) is the map of src/: a folder added or
// renamed without it leaves a newcomer a map of another tree. Every folder of the core and of the
// VS Code adapter must be named there, and nothing it names as a folder may be gone.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

function layoutParagraph(): string {
  const text = fs.readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const start = text.indexOf('The layout: ');
  assert.ok(start >= 0, 'CONTRIBUTING.md has no paragraph starting "The layout: "');
  const end = text.indexOf('\n\n', start);
  return text.slice(start, end < 0 ? undefined : end);
}

const foldersOf = (dir: string): string[] =>
  fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

describe('the layout paragraph', () => {
  const paragraph = layoutParagraph();

  it('names every room of src/core', () => {
    assert.deepEqual(foldersOf('src/core').filter((name) => !paragraph.includes(`\`${name}\``)), []);
  });

  it('names every feature folder of src/vscode', () => {
    assert.deepEqual(foldersOf('src/vscode').filter((name) => !paragraph.includes(`\`${name}/\``)), []);
  });

  it('names no feature folder of src/vscode that is gone', () => {
    // From where it describes src/vscode to where src/protocol begins (which names the page's own webview/).
    const start = paragraph.indexOf('`src/vscode`');
    const end = paragraph.indexOf('`src/protocol`', start);
    assert.ok(start >= 0 && end > start, 'the paragraph does not describe src/vscode before src/protocol');
    const named = [...paragraph.slice(start, end).matchAll(/`([a-z]+)\/`/g)].map((m) => m[1]);
    assert.ok(named.length > 0);
    assert.deepEqual(named.filter((name) => !fs.existsSync(path.join(ROOT, 'src/vscode', name))), []);
  });
});
