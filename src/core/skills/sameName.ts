// Two skills may have the same name: one in the repository, one of the person's own. `/deploy` and the
// model's load tool pick a skill by name, so a repository could otherwise stand in for the person's own
// "deploy" (its instructions read as theirs, and their servers started for it). The person's skill is
// the one the name means; a repository's skill of that name is not used by it, and is listed as such so
// the person can see why. Between two skills of one kind the first found is kept, the rest are listed.
import type { Scope } from '../config/types';

/** What the choice needs of a skill. */
export interface NamedSkill {
  readonly name: string;
  readonly file: string;
  readonly scope: Scope;
}

/** A skill that is not used by its name, and the SKILL.md that has the name instead. */
export interface SkillNotUsed<T extends NamedSkill> {
  readonly skill: T;
  readonly usedInstead: T;
  /** Why, in a sentence for the chat. */
  readonly reason: string;
}

export interface SkillChoice<T extends NamedSkill> {
  /** One skill per name, in the order found. */
  readonly usable: T[];
  readonly notUsed: SkillNotUsed<T>[];
}

/** The person's own skills (user scope) come before any other of the same name. */
function rank(skill: NamedSkill): number {
  return skill.scope === 'user' ? 0 : 1;
}

/** Picks the skill each name means: the person's own before the repository's, else the first found. */
export function chooseSkillsByName<T extends NamedSkill>(skills: readonly T[]): SkillChoice<T> {
  const chosen = new Map<string, T>();
  for (const skill of skills) {
    const held = chosen.get(skill.name);
    if (held === undefined || rank(skill) < rank(held)) chosen.set(skill.name, skill);
  }
  const usable = skills.filter((skill) => chosen.get(skill.name) === skill);
  const notUsed = skills.filter((skill) => chosen.get(skill.name) !== skill).map((skill) => {
    const usedInstead = chosen.get(skill.name)!;
    const reason = usedInstead.scope === 'user' && skill.scope !== 'user'
      ? `The skill "${skill.name}" of this workspace (${skill.file}) is not available: a personal skill has that name (${usedInstead.file}), and "${skill.name}" means that one.`
      : `The skill "${skill.name}" at ${skill.file} is not available: another skill found first has that name (${usedInstead.file}).`;
    return { skill, usedInstead, reason };
  });
  return { usable, notUsed };
}
