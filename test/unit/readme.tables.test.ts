// The reference tables (docs/commands.md, docs/settings.md) list every command and setting package.json
// contributes, and nothing else: a command or setting added without its row (or a row left after one was
// removed) fails here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const page = (name: string): string => fs.readFileSync(path.join(ROOT, 'docs', name), 'utf8');
const MANIFEST = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    commands: { command: string; title: string }[];
    configuration: { properties?: Record<string, unknown> } | { properties?: Record<string, unknown> }[];
  };
};

/** The body of the section of `text` under `heading` (up to the next heading of the same or a higher level). */
function section(text: string, heading: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  assert.ok(start >= 0, `no "${heading}" section`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The ids in backticks in cell `column` (0-based) of the section's table rows (header and rule skipped); a row may name several. */
function tableIds(body: string, column: number): string[] {
  const rows = body.split('\n').filter((line) => line.startsWith('|')).slice(2);
  assert.ok(rows.length > 0, 'the section has no table');
  return rows.flatMap((row) => {
    const cell = row.split('|')[column + 1] ?? '';
    const ids = [...cell.matchAll(/`(switchboard\.[A-Za-z0-9_.]+)`/g)].map((match) => match[1]);
    assert.ok(ids.length > 0, `a row without an id in column ${column + 1}: ${row}`);
    return ids;
  });
}

const sorted = (ids: Iterable<string>): string[] => [...ids].sort();

describe('reference tables in docs/', () => {
  it('the Commands table lists every contributed command once, by its title and id, and no other', () => {
    const body = section(page('commands.md'), '# Commands');
    const ids = tableIds(body, 1);
    assert.deepEqual(sorted(new Set(ids)), sorted(ids), 'a command is listed twice');
    assert.deepEqual(sorted(ids), sorted(MANIFEST.contributes.commands.map((c) => c.command)));
    for (const { command, title } of MANIFEST.contributes.commands) {
      const row = body.split('\n').find((line) => line.includes(`\`${command}\``)) ?? '';
      assert.ok(row.includes(title), `the row of ${command} does not name its title "${title}": ${row}`);
    }
  });

  it('the Settings table lists every contributed setting once, and no other', () => {
    const configuration = ([] as { properties?: Record<string, unknown> }[]).concat(MANIFEST.contributes.configuration);
    const settings = configuration.flatMap((part) => Object.keys(part.properties ?? {}));
    const ids = tableIds(section(page('settings.md'), '# Settings'), 0);
    assert.deepEqual(sorted(new Set(ids)), sorted(ids), 'a setting is listed twice');
    assert.deepEqual(sorted(ids), sorted(settings));
  });
});
