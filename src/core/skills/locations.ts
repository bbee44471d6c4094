// Where skills live, as VS Code and Claude Code look for them today: in a workspace folder
// `.github/skills/<name>/SKILL.md` (Copilot), `.claude/skills/<name>/SKILL.md` (Claude) and
// `.agents/skills/<name>/SKILL.md` (Codex); for the person, the same under `~/.copilot`, `~/.claude`
// and `~/.agents`. A workspace's skills are repository content: their servers are project-scope
// servers, under the trust prompt like any in `.mcp.json`. The person's own are user-scope.
import * as path from 'node:path';
import type { LayerSpec } from '../config/types';

/** Skill folders inside a workspace folder. */
export const PROJECT_SKILL_DIRS: readonly string[] = ['.github/skills', '.claude/skills', '.agents/skills'];
/** Skill folders inside the home directory. */
export const USER_SKILL_DIRS: readonly string[] = ['.copilot/skills', '.claude/skills', '.agents/skills'];
export const SKILL_FILE = 'SKILL.md';

export interface SkillSpecOptions {
  folders: readonly string[];
  userHome: string;
  env: Record<string, string | undefined>;
  /** The names of the folders inside `dir` that hold a SKILL.md (none when `dir` does not exist). */
  skillFolders(dir: string): readonly string[];
}

/** One layer per SKILL.md found: the workspace folders' first, in folder order, then the person's. */
export function skillLayerSpecs(options: SkillSpecOptions): LayerSpec[] {
  const { env, userHome } = options;
  const specs: LayerSpec[] = [];
  for (const folder of options.folders) {
    for (const dir of PROJECT_SKILL_DIRS) {
      const root = path.join(folder, dir);
      for (const name of [...options.skillFolders(root)].sort()) {
        specs.push({ scope: 'project', format: 'skill', file: path.join(root, name, SKILL_FILE), folder, vars: { env, userHome, workspaceFolder: folder } });
      }
    }
  }
  for (const dir of USER_SKILL_DIRS) {
    const root = path.join(userHome, dir);
    for (const name of [...options.skillFolders(root)].sort()) {
      specs.push({ scope: 'user', format: 'skill', file: path.join(root, name, SKILL_FILE), vars: { env, userHome } });
    }
  }
  return specs;
}
