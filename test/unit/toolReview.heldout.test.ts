// The held-out set (test/fixtures/tool-outputs/heldout, written before the patterns and never tuned
// on): prints how many hostile lines and ordinary paragraphs the output scan flags, per language. The
// figures are reported, not asserted: a held-out set that a test holds to a number is tuned on.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanOutputTexts } from '../../src/core/toolReview/outputScan';

const HELD_OUT = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'tool-outputs', 'heldout');
const LANGUAGES = ['en', 'zh', 'de', 'fr', 'es', 'ru', 'ja'];

describe('output scan on the held-out set', () => {
  it('measures every language: hostile lines flagged and ordinary paragraphs flagged', () => {
    const rows: string[] = [];
    for (const language of LANGUAGES) {
      const hostile = fs.readFileSync(path.join(HELD_OUT, `hostile-${language}.txt`), 'utf8').split('\n').filter((line) => line.trim() !== '');
      const ordinary = fs.readFileSync(path.join(HELD_OUT, `ordinary-${language}.txt`), 'utf8').split(/\n\s*\n/).filter((block) => block.trim() !== '');
      assert.equal(hostile.length, 8, language);
      assert.ok(ordinary.length >= 6, language);
      const flagged = (texts: string[]): number => texts.filter((text) => scanOutputTexts([text]).length > 0).length;
      rows.push(`${language}: hostile ${flagged(hostile)}/${hostile.length}, ordinary ${flagged(ordinary)}/${ordinary.length}`);
    }
    console.log(`      [held-out] ${rows.join('; ')}`);
  });
});
