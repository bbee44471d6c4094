// The model loading a skill: in an @mcp turn the model is offered one small tool that names the skills
// there are, each with a line of its description, and loads the one it picks (its instructions come
// back as the tool's result, its servers' tools join the rest of that turn). A skill's name,
// description and body are repository content the model reads, so they go through the poisoning scan
// (skillScan.ts): a flagged skill is left out of the tool, and the turn says why. The tool is bounded in
// size however many skills there are: the first skills by name, each description cut to one short line.
import type { ModelToolSpec } from '../chat/modelTools';
import { scanSkill, skillFindingReasons } from './skillScan';

export const USE_SKILL_TOOL_NAME = 'switchboard_use_skill';

/** What the tool lists of a skill. */
export interface SkillSummary {
  readonly name: string;
  readonly description: string;
  /** Its instructions, scanned with the rest: a skill whose body is flagged is not offered either. */
  readonly body?: string;
}

export interface SkillToolLimits {
  /** At most this many skills are listed (the rest stay usable as `@mcp /name`). */
  readonly maxSkills: number;
  /** Each description is cut to this many characters. */
  readonly maxDescriptionChars: number;
}

export const DEFAULT_SKILL_TOOL_LIMITS: SkillToolLimits = { maxSkills: 20, maxDescriptionChars: 140 };

/** The tool for this turn (none when no skill can be offered), and what was left out and why. */
export interface SkillToolOffer {
  readonly spec?: ModelToolSpec;
  readonly offered: readonly string[];
  /** Skills whose name, description or body the poisoning scan flagged, with its reasons. */
  readonly withheld: readonly { name: string; reasons: string[] }[];
  /** Skills over the size bound, by name. */
  readonly unlisted: readonly string[];
}

/** One line of at most `max` characters: whitespace runs folded, cut with an ellipsis. */
function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** The load tool over `skills` (duplicates by name count once, the first kept). */
export function skillToolOffer(skills: readonly SkillSummary[], limits: SkillToolLimits = DEFAULT_SKILL_TOOL_LIMITS): SkillToolOffer {
  const withheld: { name: string; reasons: string[] }[] = [];
  const clean: SkillSummary[] = [];
  const seen = new Set<string>();
  for (const skill of [...skills].sort((a, b) => a.name.localeCompare(b.name))) {
    if (seen.has(skill.name)) continue;
    seen.add(skill.name);
    const findings = scanSkill(skill);
    if (findings.length > 0) withheld.push({ name: skill.name, reasons: skillFindingReasons(findings) });
    else clean.push(skill);
  }
  const listed = clean.slice(0, limits.maxSkills);
  const unlisted = clean.slice(limits.maxSkills).map((skill) => skill.name);
  if (listed.length === 0) return { offered: [], withheld, unlisted };
  const lines = listed.map((skill) => `- ${skill.name}${skill.description.trim() === '' ? '' : `: ${oneLine(skill.description, limits.maxDescriptionChars)}`}`);
  const description = [
    'Loads a skill: returns its instructions, and its tools are offered from the next request of this turn on. Load one when the task matches its description. Skills:',
    ...lines,
    ...(unlisted.length > 0 ? [`(${unlisted.length} more not listed.)`] : []),
  ].join('\n');
  const names = listed.map((skill) => skill.name);
  return {
    spec: {
      name: USE_SKILL_TOOL_NAME,
      description,
      inputSchema: { type: 'object', properties: { name: { type: 'string', enum: names, description: 'The skill to load.' } }, required: ['name'] },
    },
    offered: names,
    withheld,
    unlisted,
  };
}

/** The name a load call asks for, or why it cannot be loaded (the model reads the reason). */
export function skillToLoad(offer: SkillToolOffer, input: Readonly<Record<string, unknown>>): { name: string } | { error: string } {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name === '') return { error: `Give the skill's name as "name": one of ${offer.offered.join(', ')}.` };
  if (!offer.offered.includes(name)) return { error: `There is no skill "${name}" to load; the skills are ${offer.offered.join(', ')}.` };
  return { name };
}

/** What the model reads after loading: the skill's instructions, then which of its tools it now has. */
export function loadedSkillText(instructions: string, tools: readonly string[]): string {
  const offered = tools.length === 0 ? 'This skill brings no tools that are available now.' : `Its tools are offered from now on in this request: ${tools.join(', ')}.`;
  return `${instructions}\n${offered}`;
}
