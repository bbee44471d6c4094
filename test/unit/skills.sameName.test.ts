// Two skills with one name: the person's own is the one the name means, so a repository's SKILL.md
// cannot stand in for it; the repository's is listed as not available, saying why.
import * as assert from 'node:assert/strict';
import { chooseSkillsByName } from '../../src/core/skills';

describe('skills: two skills with the same name', () => {
  const repo = { name: 'deploy', file: '/repo/.github/skills/deploy/SKILL.md', scope: 'project' as const };
  const mine = { name: 'deploy', file: '/home/p/.claude/skills/deploy/SKILL.md', scope: 'user' as const };
  const other = { name: 'notes', file: '/repo/.claude/skills/notes/SKILL.md', scope: 'project' as const };

  it('uses the personal skill even though the workspace one is found first, and says why the other is not available', () => {
    const choice = chooseSkillsByName([repo, other, mine]);
    assert.deepEqual(choice.usable, [other, mine]);
    assert.equal(choice.notUsed.length, 1);
    assert.equal(choice.notUsed[0].skill, repo);
    assert.equal(choice.notUsed[0].usedInstead, mine);
    assert.match(choice.notUsed[0].reason, /of this workspace .*not available: a personal skill has that name/);
  });

  it('keeps the first of two workspace skills with one name, and every skill of a distinct name', () => {
    const second = { ...repo, file: '/repo/.agents/skills/deploy/SKILL.md' };
    const choice = chooseSkillsByName([repo, second, other]);
    assert.deepEqual(choice.usable, [repo, other]);
    assert.deepEqual(choice.notUsed.map((n) => n.skill), [second]);
    assert.match(choice.notUsed[0].reason, /another skill found first has that name/);
    assert.deepEqual(chooseSkillsByName([other, mine]).notUsed, []);
  });
});
