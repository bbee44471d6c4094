// Using a skill in @mcp (`@mcp /skill-name …`): its SKILL.md is read afresh, its servers are started
// (a workspace skill's through the trust prompt, like any project server's Start), its instructions go
// to the model, and its tools join this turn's offer only. A server that does not start leaves the
// skill usable without its tools: the turn says which and why. The skill is held while the turn runs;
// once idle for `switchboard.skills.idleStopSeconds` its servers are stopped.
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import type { ConfigSnapshot, Scope } from '../../core/config';
import { errorMessage, ServerState, type ServerRegistry } from '../../core/lifecycle';
import { chooseSkillsByName, parseSkillFile, skillFolderName, SkillIdleStop, type SkillDocument, type SkillNotUsed } from '../../core/skills';
import type { Clock } from '../../core/lifecycle/clock';
import { startServer, type StartTrust } from '../servers/serverCommands';

export const IDLE_STOP_SETTING = 'switchboard.skills.idleStopSeconds';
const DEFAULT_IDLE_STOP_SECONDS = 300;

/** The idle time in milliseconds; an unusable value falls back to the default. */
export function readIdleStopMs(): number {
  const value = vscode.workspace.getConfiguration().get<unknown>(IDLE_STOP_SETTING);
  const seconds = typeof value === 'number' && Number.isFinite(value) && value >= 1 ? value : DEFAULT_IDLE_STOP_SECONDS;
  return seconds * 1000;
}

/** One server of a used skill: available (ready) or not, and why. */
export interface SkillServerStatus {
  id: string;
  server: string;
  available: boolean;
  reason?: string;
}

/** A skill with the scope of its SKILL.md (the person's own is `user`). */
export type ScopedSkill = SkillDocument & { scope: Scope };

/** A skill in use for one turn. */
export interface UsedSkill {
  skill: SkillDocument;
  servers: SkillServerStatus[];
  /** Ends this turn's hold on the skill (its idle time starts). */
  release(): void;
}

export interface SkillUseDeps {
  config: { readonly current: ConfigSnapshot };
  registry: ServerRegistry;
  trust: StartTrust;
  clock: Clock;
}

/** Finds, starts and idles the skills of the workspace and the person. */
export class SkillUse implements vscode.Disposable {
  readonly idle: SkillIdleStop;

  constructor(private readonly deps: SkillUseDeps) {
    this.idle = new SkillIdleStop({ clock: deps.clock, idleMs: readIdleStopMs, stop: (skill) => this.stopServers(skill) });
  }

  /** The SKILL.md files that are layers now (each found skill, with or without servers). */
  files(): string[] {
    return this.deps.config.current.layers.filter((layer) => layer.spec.format === 'skill').map((layer) => layer.spec.file);
  }

  /**
   * The skill called `name`, read afresh from its file; undefined when there is none (or it cannot be
   * read). With two of that name, the person's own (see core/skills/sameName).
   */
  async find(name: string): Promise<SkillDocument | undefined> {
    return (await this.list()).find((skill) => skill.name === name);
  }

  /** Every skill usable by its name, read afresh from its file (one that cannot be read or parsed is left out). */
  async list(): Promise<SkillDocument[]> {
    return (await this.choose()).usable;
  }

  /** The skills that are not used by their name, because another (the person's own first) has it. */
  async notUsed(): Promise<SkillNotUsed<ScopedSkill>[]> {
    return (await this.choose()).notUsed;
  }

  private async choose() {
    const skills: ScopedSkill[] = [];
    for (const layer of this.deps.config.current.layers) {
      if (layer.spec.format !== 'skill') continue;
      let text: string;
      try {
        text = await fs.readFile(layer.spec.file, 'utf8');
      } catch {
        continue;
      }
      const skill = parseSkillFile({ ...layer.spec, format: undefined }, text, skillFolderName(layer.spec.file)).skill;
      if (skill) skills.push({ ...skill, scope: layer.spec.scope });
    }
    return chooseSkillsByName(skills);
  }

  /** Holds the skill and starts its servers (in parallel); resolves with each one's status. */
  async use(skill: SkillDocument, progress: (message: string) => void): Promise<UsedSkill> {
    // Held and matched by its SKILL.md: another skill's servers (a repository's of the same name) are never its.
    const release = this.idle.hold(skill.file);
    const views = this.serversOf(skill.file);
    if (views.some((view) => view.state.kind !== 'ready')) progress(`Starting the servers of the skill ${skill.name}…`);
    const servers = await Promise.all(views.map(async (view): Promise<SkillServerStatus> => {
      const server = view.server.skill?.server ?? view.id;
      let failure: string | undefined;
      if (view.state.kind !== 'ready') {
        try {
          await startServer(this.deps.registry, view.id, this.deps.trust);
        } catch (error) {
          failure = errorMessage(error);
        }
      }
      const now = this.deps.registry.get(view.id)?.state ?? view.state;
      if (now.kind === 'ready') {
        // Its tools are offered from the catalog: wait for the listing that follows the start.
        await this.deps.registry.get(view.id)?.whenCatalogLoaded();
        return { id: view.id, server, available: true };
      }
      return { id: view.id, server, available: false, reason: failure ?? reasonOf(now) };
    }));
    return { skill, servers, release };
  }

  dispose(): void {
    this.idle.dispose();
  }

  /** The servers the SKILL.md at `file` brings. */
  private serversOf(file: string) {
    return this.deps.registry.list().filter((view) => view.server.skill?.file === file);
  }

  private stopServers(file: string): void {
    for (const view of this.serversOf(file)) {
      if (view.state.kind === 'stopped' || view.state.kind === 'needsTrust' || view.state.kind === 'disabled') continue;
      void this.deps.registry.stop(view.id).catch(() => undefined);
    }
  }
}

function reasonOf(state: ServerState): string {
  switch (state.kind) {
    case 'failed': return `it failed to start: ${state.error}`;
    case 'crashed': return `it crashed: ${state.error}`;
    case 'needsTrust': return 'it is defined by this workspace and was not trusted';
    case 'disabled': return state.reason ?? 'its entry disables it';
    default: return `it is ${ServerState.label(state).toLowerCase()}`;
  }
}
