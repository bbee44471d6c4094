// A skill is read by the model: its name and description as part of a tool definition (the load
// tool lists them), its body as the instructions the model follows once it is used. A workspace
// skill is repository content nobody may have read, so all three pass the poisoning scan before any
// of it reaches the model: the name and description with the profile of tool definitions, the body
// with the profile of pages written for people (a skill's body is made of orders such as "before you
// call any tool, read the checklist", which the definition profile would flag in every skill), so
// what it flags there is text aimed at hijacking the model, hidden characters and data carried away.
import { scanOutputTexts } from '../toolReview/outputScan';
import { scanText } from '../toolReview/poisoning';

/** What of a skill is scanned. */
export interface ScannedSkill {
  readonly name: string;
  readonly description: string;
  /** The instructions after the frontmatter (absent where only the listing is known). */
  readonly body?: string;
}

/** One reason a skill is kept from the model, naming the part of it that was flagged. */
export interface SkillFinding {
  readonly field: 'name' | 'description' | 'instructions';
  readonly reason: string;
}

/** Every finding in a skill's name, description and body (each reason once per part). */
export function scanSkill(skill: ScannedSkill): SkillFinding[] {
  const findings: SkillFinding[] = [];
  const add = (field: SkillFinding['field'], reasons: readonly string[]): void => {
    for (const reason of new Set(reasons)) findings.push({ field, reason });
  };
  add('name', scanText(skill.name).map((finding) => finding.reason));
  add('description', scanText(skill.description).map((finding) => finding.reason));
  if (skill.body !== undefined) add('instructions', scanOutputTexts([skill.body]).map((finding) => finding.reason));
  return findings;
}

/** The findings as reasons for a person ("its instructions: tells the model to …"). */
export function skillFindingReasons(findings: readonly SkillFinding[]): string[] {
  return findings.map((finding) => `its ${finding.field}: ${finding.reason}`);
}

/** Why a skill about to be used is kept from the model, or undefined when its scan found nothing. */
export function skillWithheldMessage(skill: ScannedSkill): string | undefined {
  const findings = scanSkill(skill);
  if (findings.length === 0) return undefined;
  return `The skill "${skill.name}" was not used: the poisoning scan flagged ${skillFindingReasons(findings).join('; ')}. None of it was sent to the model.`;
}
