// The skills-directory watch on real files, as a shell changes them: `.claude/skills/<name>/SKILL.md`
// made with mkdir -p under a folder where `.claude` did not exist, an edit, a deletion, and the whole
// `.claude` removed and made again (the old directory watch is then dead). Each is reported; a file
// beside the skills that is not a SKILL.md is not.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { watchSkillRoots } from '../../src/node/skillFolderWatch';
import { delay, TempDirs, waitFor } from './support';

describe('watchSkillRoots: skills a shell adds, edits and deletes', function () {
  this.timeout(20_000);
  const temp = new TempDirs();
  let watch: { dispose(): void } | undefined;
  afterEach(() => {
    watch?.dispose();
    watch = undefined;
    temp.cleanup();
  });

  it('reports a skill in folders made after the watch started, its edit, its deletion, and a skill in a re-made .claude', async () => {
    const ws = temp.make();
    const root = path.join(ws, '.claude', 'skills');
    let changes = 0;
    watch = watchSkillRoots([root], () => { changes += 1; });
    const skill = path.join(root, 'greeter', 'SKILL.md');
    const seen = async (what: string): Promise<void> => {
      const before = changes;
      await waitFor(what, () => changes > before, 2000);
    };

    const created = seen('the new skill');
    fs.mkdirSync(path.dirname(skill), { recursive: true });
    fs.writeFileSync(skill, '---\nname: greeter\n---\nHello.\n');
    await created;

    const edited = seen('the edit');
    fs.writeFileSync(skill, '---\nname: greeter\ndescription: edited\n---\nHello.\n');
    await edited;

    const deleted = seen('the deletion');
    fs.rmSync(path.dirname(skill), { recursive: true });
    await deleted;

    const remade = seen('a skill in a .claude made again');
    fs.rmSync(path.join(ws, '.claude'), { recursive: true });
    fs.mkdirSync(path.join(root, 'other'), { recursive: true });
    fs.writeFileSync(path.join(root, 'other', 'SKILL.md'), '---\nname: other\n---\n');
    await remade;

    await delay(300);
    const settled = changes;
    fs.writeFileSync(path.join(root, 'notes.txt'), 'not a skill');
    fs.mkdirSync(path.join(root, 'empty'));
    await delay(500);
    assert.equal(changes, settled, 'a file or an empty folder beside the skills was reported as a change');
  });
});
