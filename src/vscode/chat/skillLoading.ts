// The model loading a skill in an @mcp turn: the turn offers `switchboard_use_skill` (the skills whose
// names, descriptions and instructions pass the poisoning scan, bounded in size), and a call to it uses the skill as
// `@mcp /skill-name` does — its servers start under the same trust rules, its instructions are the
// tool's result, and its servers' tools join the offer for the rest of that turn only. The turn holds
// each skill it loaded until it ends; then the idle stop runs as for `/skill-name`.
import * as vscode from 'vscode';
import { toolSpecOf, type ModelToolSpec, type ToolCallRequestPart, type ToolRunResult } from '../../core/chat';
import { loadedSkillText, skillInstructions, skillToLoad, skillToolOffer, skillWithheldMessage, USE_SKILL_TOOL_NAME, type SkillToolOffer } from '../../core/skills';
import type { ChatServices } from './chatServices';
import type { SkillUse, UsedSkill } from './skillUse';

/** What a turn's metadata says of the skills the model could load and loaded. */
export interface SkillLoadingMetadata {
  offered: string[];
  withheld: { name: string; reasons: string[] }[];
  loaded: { name: string; servers: { id: string; available: boolean; reason?: string }[] }[];
}

export class TurnSkillLoader {
  private readonly used: UsedSkill[] = [];
  readonly metadata: SkillLoadingMetadata;

  private constructor(
    private readonly skills: SkillUse,
    private readonly services: ChatServices,
    /** The turn's skills (by SKILL.md): a loaded one is added, so its tools are callable for the rest of the turn. */
    private readonly turnSkills: string[],
    private readonly offer: SkillToolOffer,
  ) {
    this.metadata = { offered: [...offer.offered], withheld: offer.withheld.map((w) => ({ name: w.name, reasons: [...w.reasons] })), loaded: [] };
  }

  /** The loader for a turn, or undefined when there are no skills to load (`turnSkills` are in use already). */
  static async create(skills: SkillUse | undefined, services: ChatServices, turnSkills: string[], stream: vscode.ChatResponseStream): Promise<TurnSkillLoader | undefined> {
    if (skills === undefined) return undefined;
    const found = (await skills.list()).filter((skill) => !turnSkills.includes(skill.file));
    if (found.length === 0) return undefined;
    const offer = skillToolOffer(found.map(({ name, description, body }) => ({ name, description, body })));
    for (const kept of offer.withheld) {
      // The reasons quote the skill's own text: shown as text, never as markdown.
      stream.markdown(new vscode.MarkdownString().appendText(`The skill "${kept.name}" was not offered to the model: the poisoning scan flagged ${kept.reasons.join('; ')}.`).appendMarkdown('\n\n'));
    }
    // A skill not used by its name (a personal one has it) is said once, so the person sees which "deploy" is meant.
    // (Not again for the skill this turn uses by `/name`: that was said already.)
    for (const other of (await skills.notUsed()).filter((n) => !turnSkills.includes(n.usedInstead.file))) stream.markdown(new vscode.MarkdownString().appendText(other.reason).appendMarkdown('\n\n'));
    return new TurnSkillLoader(skills, services, turnSkills, offer);
  }

  /** The load tool while some skill is left to load, then the loaded skills' tools. */
  specs(): ModelToolSpec[] {
    const loadTool = this.offer.spec && this.used.length < this.offer.offered.length ? [this.offer.spec] : [];
    return [...loadTool, ...this.loadedTools().map(toolSpecOf)];
  }

  isLoadTool(name: string): boolean {
    return name === USE_SKILL_TOOL_NAME && this.offer.spec !== undefined;
  }

  /** Runs a load call: starts the skill's servers and answers with its instructions and its tools' names. */
  async load(call: ToolCallRequestPart, stream: vscode.ChatResponseStream): Promise<ToolRunResult> {
    const asked = skillToLoad(this.offer, call.input);
    if ('error' in asked) return textResult(asked.error, true);
    const already = this.used.find((used) => used.skill.name === asked.name);
    if (already) return textResult(loadedSkillText(`The skill ${asked.name} is loaded already.`, this.toolsOf(already)), false);
    const skill = await this.skills.find(asked.name);
    if (skill === undefined) return textResult(`The skill ${asked.name} is no longer there (its SKILL.md was removed or cannot be read).`, true);
    // Read afresh, so scanned afresh: the file may have changed since the offer was made.
    const withheld = skillWithheldMessage(skill);
    if (withheld !== undefined) {
      stream.markdown(new vscode.MarkdownString().appendText(withheld).appendMarkdown('\n\n'));
      return textResult(`The skill ${asked.name} cannot be loaded: MCP Switchboard's poisoning scan flagged it.`, true);
    }
    const used = await this.skills.use(skill, (message) => stream.progress(message));
    this.used.push(used);
    this.turnSkills.push(skill.file);
    this.metadata.loaded.push({ name: skill.name, servers: used.servers.map(({ id, available, reason }) => ({ id, available, ...(reason ? { reason } : {}) })) });
    const unavailable = used.servers.filter((server) => !server.available);
    stream.markdown(`*The model loaded the skill **${skill.name}**${used.servers.length > 0 ? ` with ${used.servers.length - unavailable.length} of its ${used.servers.length} servers` : ''}.*\n\n`);
    for (const server of unavailable) stream.markdown(`*The tools of its server ${server.server} are unavailable: ${server.reason ?? 'it did not start'}. The skill's instructions are used without them.*\n\n`);
    const instructions = skillInstructions(skill, unavailable.map((server) => ({ server: server.server, reason: server.reason ?? 'it did not start' })));
    return textResult(loadedSkillText(instructions, this.toolsOf(used)), false);
  }

  /** Ends the turn's hold on every skill it loaded (their idle time starts). */
  release(): void {
    for (const used of this.used) used.release();
  }

  private loadedTools() {
    const ids = new Set(this.used.flatMap((used) => used.servers.filter((server) => server.available).map((server) => server.id)));
    return ids.size === 0 ? [] : this.services.tools(this.turnSkills).tools.filter((tool) => ids.has(tool.server));
  }

  private toolsOf(used: UsedSkill): string[] {
    const ids = new Set(used.servers.filter((server) => server.available).map((server) => server.id));
    return this.services.tools(this.turnSkills).tools.filter((tool) => ids.has(tool.server)).map((tool) => tool.qualifiedName);
  }
}

function textResult(text: string, isError: boolean): ToolRunResult {
  return { content: [{ kind: 'text', text }], isError };
}
