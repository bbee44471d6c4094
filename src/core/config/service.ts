// Keeps the merged configuration current: reads every layer, watches every file, re-reads only the file
// that changed, and keeps a broken file's last good servers so a typo never stops running servers.
import { createHash } from 'node:crypto';
import type { Disposable } from '../disposable';
import { Emitter, type Event } from '../event';
import type { EnvFileSupport } from './envFiles';
import { withWorkspaceReads, workspaceReadFiles } from './workspaceReads';
import { canonicalJson } from './fingerprint';
import { mergeLayers } from './merge';
import { parseLayer } from './parse';
import { MAX_CONFIG_BYTES, type ConfigFileSystem } from './ports';
import { fileStartRange, problemAt } from './positions';
import type { ConfigProblem, ConfigRead, InputDefinition, Layer, LayerSpec, MergedConfig, ServerEntry } from './types';

/** The merged configuration plus the layers it came from; `version` grows with every change. */
export interface ConfigSnapshot extends MergedConfig {
  layers: Layer[];
  version: number;
}

/** Options of ConfigService. */
export interface ConfigServiceOptions {
  /** Delay between a file change and its re-read; a burst of changes inside it causes one read. Default 100. */
  throttleMs?: number;
  /** Receives errors thrown by onDidChange listeners (they must not break reading). Default: console.error. */
  onError?: (error: unknown) => void;
  /**
   * How env files are parsed and their values (and package runner configuration) digested. Each file
   * is read with the layer that names it, and watched: a change re-reads that layer. Without it no env
   * file or runner configuration is read, and a project server with an env file cannot start (its
   * variables were never checked). The workspace folders are those of the layers.
   */
  envFiles?: Omit<EnvFileSupport, 'read' | 'workspaceFolders'>;
}

/** Builds a snapshot from a merge result and its layers. */
export function toSnapshot(merged: MergedConfig, layers: Layer[], version: number): ConfigSnapshot {
  return { ...merged, layers, version };
}

interface FileState {
  timer?: ReturnType<typeof setTimeout>;
  reading: boolean;
  /** Another change arrived while reading: read again afterwards. */
  again: boolean;
}

/** Reads, watches and merges the configured layers; emits a snapshot after every change. */
export class ConfigService implements Disposable {
  private readonly emitter = new Emitter<ConfigSnapshot>();
  /** Fires after every (re)read that changed something, with the new snapshot. */
  readonly onDidChange: Event<ConfigSnapshot> = this.emitter.event;

  private readonly throttleMs: number;
  private readonly onError: (error: unknown) => void;
  private specs: LayerSpec[] = [];
  private layers: Layer[] = [];
  private snapshot: ConfigSnapshot = toSnapshot({ servers: [], shadowed: [], problems: [], inputs: [] }, [], 0);
  private watchers: Disposable[] = [];
  /** Env file → its watcher and the config files whose servers name it. */
  private readonly envFileWatchers = new Map<string, { watcher: Disposable; configFiles: Set<string> }>();
  private readonly watchProblems = new Map<string, ConfigProblem>();
  private readonly files = new Map<string, FileState>();
  private readonly lastGood = new Map<string, { servers: ServerEntry[]; inputs: InputDefinition[] }>();
  /** File → digest of the read its current layers were parsed from (readDigest). */
  private readonly readDigests = new Map<string, string>();
  /** Bumped by setSpecs: results of reads started under an older generation are dropped. */
  private generation = 0;
  private settling: Promise<void> | undefined;
  private disposed = false;

  constructor(private readonly fs: ConfigFileSystem, private readonly options: ConfigServiceOptions = {}) {
    this.throttleMs = options.throttleMs ?? 100;
    this.onError = options.onError ?? ((error) => console.error('[config] onDidChange listener failed:', error));
  }

  /** The latest merged configuration. */
  get current(): ConfigSnapshot {
    return this.snapshot;
  }

  /** Replaces the set of layers: reads them all, watches every file-backed one, and emits. */
  setSpecs(specs: LayerSpec[]): Promise<void> {
    if (this.disposed) return Promise.resolve();
    const generation = ++this.generation;
    this.unwatchAll();
    const keys = new Set(specs.map(specKey));
    for (const key of [...this.lastGood.keys()]) if (!keys.has(key)) this.lastGood.delete(key);
    this.watchAll(specs);
    const settling = this.readAll(specs).then((read) => {
      if (generation !== this.generation || this.disposed) return;
      this.specs = [...specs];
      this.layers = specs.map((spec, i) => this.accept(spec, read.layers[i]));
      this.rememberReads(read.digests);
      this.publish();
    });
    this.settling = settling;
    return settling;
  }

  /** Re-reads every layer and emits. */
  async reload(): Promise<void> {
    await this.settling;
    const generation = this.generation;
    const specs = this.specs;
    const read = await this.readAll(specs);
    if (generation !== this.generation || this.disposed) return;
    this.layers = specs.map((spec, i) => this.accept(spec, read.layers[i]));
    this.rememberReads(read.digests);
    this.publish();
  }

  /** Stops watching and cancels pending re-reads; no event fires afterwards. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unwatchAll();
    this.unwatchEnvFiles(new Map());
    this.emitter.dispose();
  }

  private watchAll(specs: LayerSpec[]): void {
    const files = new Set(specs.filter((spec) => spec.inline === undefined).map((spec) => spec.file));
    for (const file of files) {
      try {
        this.watchers.push(this.fs.watch(file, () => this.onFileChanged(file)));
      } catch (error) {
        this.watchProblems.set(file, problemAt(fileStartRange(file), 'warning', 'watch-failed',
          `Changes to this file are not picked up automatically (${errorMessage(error)}); run "Reload Server Configuration" after editing it.`));
      }
    }
  }

  private unwatchAll(): void {
    for (const watcher of this.watchers) {
      try { watcher.dispose(); } catch { /* a failing unwatch must not keep the others alive */ }
    }
    this.watchers = [];
    this.watchProblems.clear();
    for (const state of this.files.values()) if (state.timer !== undefined) clearTimeout(state.timer);
    this.files.clear();
  }

  private onFileChanged(file: string): void {
    if (this.disposed) return;
    const state = this.files.get(file) ?? { reading: false, again: false };
    this.files.set(file, state);
    if (state.reading) state.again = true;
    else if (state.timer === undefined) state.timer = setTimeout(() => void this.rereadFile(file, state), this.throttleMs);
  }

  /** Re-reads one changed file (for every layer backed by it) and emits if its layers changed. */
  private async rereadFile(file: string, state: FileState): Promise<void> {
    state.timer = undefined;
    state.reading = true;
    try {
      await this.settling;
      const generation = this.generation;
      const read = await this.read(file);
      if (generation !== this.generation || this.disposed) return;
      let changed = false;
      const specs = this.specs;
      const parsed = await Promise.all(specs.map((spec) => (spec.file !== file || spec.inline !== undefined ? undefined : this.layerFrom(spec, read))));
      if (generation !== this.generation || this.disposed) return;
      specs.forEach((spec, i) => {
        const fresh = parsed[i];
        if (fresh === undefined) return;
        const layer = this.accept(spec, fresh);
        if (canonicalJson(layer) !== canonicalJson(this.layers[i])) changed = true;
        this.layers[i] = layer;
      });
      this.readDigests.set(file, readDigest(read));
      // Saving a file without changing it must not restart anything downstream.
      if (changed) this.publish();
    } catch (error) {
      this.onError(error);
    } finally {
      state.reading = false;
      if (state.again && this.files.get(file) === state) {
        state.again = false;
        this.onFileChanged(file);
      }
    }
  }

  /** Whether `read` (the file as it is now) is what the current configuration was read from for `file`. */
  isCurrentRead(file: string, read: ConfigRead): boolean {
    return this.readDigests.get(file) === readDigest(read);
  }

  private async readAll(specs: LayerSpec[]): Promise<{ layers: Layer[]; digests: Map<string, string> }> {
    const digests = new Map<string, string>();
    const layers = await Promise.all(specs.map(async (spec) => {
      if (spec.inline !== undefined) return this.layerFrom(spec, { kind: 'missing' }, specs);
      const read = await this.read(spec.file);
      digests.set(spec.file, readDigest(read));
      return this.layerFrom(spec, read, specs);
    }));
    return { layers, digests };
  }

  private rememberReads(digests: ReadonlyMap<string, string>): void {
    this.readDigests.clear();
    for (const [file, digest] of digests) this.readDigests.set(file, digest);
  }

  /** Parses a layer and reads what its servers read from the workspace (env files, package runner configuration). */
  private async layerFrom(spec: LayerSpec, read: ConfigRead, specs: readonly LayerSpec[] = this.specs): Promise<Layer> {
    // The YAML parser (a skill's frontmatter) loads with the first SKILL.md read, not with the host.
    const layer = spec.format === 'skill' ? (await import('../skills/skillFile')).parseSkillLayer(spec, read) : parseLayer(spec, read);
    const envFiles = this.options.envFiles;
    if (envFiles === undefined) return layer;
    return withWorkspaceReads(layer, { ...envFiles, workspaceFolders: workspaceFolders(specs), read: (file, maxBytes) => this.fs.read(file, maxBytes) });
  }

  /**
   * Watches every file outside the configuration a server's launch reads (env files, package runner
   * configuration, also where none exists yet), so that an edit re-reads the layer that names it.
   */
  private watchEnvFiles(): void {
    if (this.options.envFiles === undefined || this.disposed) return;
    const wanted = new Map<string, Set<string>>();
    const folders = workspaceFolders(this.specs);
    for (const layer of this.layers) {
      if (layer.spec.inline !== undefined) continue;
      for (const server of layer.servers) {
        for (const file of workspaceReadFiles(server, layer.spec.vars.userHome, folders)) {
          const configFiles = wanted.get(file) ?? new Set<string>();
          configFiles.add(layer.spec.file);
          wanted.set(file, configFiles);
        }
      }
    }
    this.unwatchEnvFiles(wanted);
    for (const [file, configFiles] of wanted) {
      const existing = this.envFileWatchers.get(file);
      if (existing) {
        existing.configFiles = configFiles;
        continue;
      }
      const entry = { watcher: { dispose: () => undefined } as Disposable, configFiles };
      try {
        entry.watcher = this.fs.watch(file, () => { for (const configFile of entry.configFiles) this.onFileChanged(configFile); });
      } catch (error) {
        this.onError(error);
      }
      this.envFileWatchers.set(file, entry);
    }
  }

  /** Stops watching the env files not in `keep`. */
  private unwatchEnvFiles(keep: ReadonlyMap<string, unknown>): void {
    for (const [file, entry] of this.envFileWatchers) {
      if (keep.has(file)) continue;
      try { entry.watcher.dispose(); } catch { /* a failing unwatch must not keep the others alive */ }
      this.envFileWatchers.delete(file);
    }
  }

  private async read(file: string): Promise<ConfigRead> {
    try {
      return await this.fs.read(file, MAX_CONFIG_BYTES);
    } catch (error) {
      return { kind: 'unreadable', message: errorMessage(error) };
    }
  }

  /** Applies "last good servers" to an unusable layer, and remembers a usable one's servers. */
  private accept(spec: LayerSpec, parsed: Layer): Layer {
    const watchProblem = this.watchProblems.get(spec.file);
    const layer = watchProblem && spec.inline === undefined ? { ...parsed, problems: [...parsed.problems, watchProblem] } : parsed;
    const key = specKey(spec);
    if (layer.usable) {
      this.lastGood.set(key, { servers: layer.servers, inputs: layer.inputs });
      return layer;
    }
    const good = this.lastGood.get(key);
    if (!good || good.servers.length === 0) return layer;
    const names = good.servers.map((server) => `"${server.name}"`).join(', ');
    const kept = problemAt(fileStartRange(spec.file), 'warning', 'kept-last-good',
      `Showing the last valid servers from this file (${names}) until the error is fixed.`);
    return { ...layer, servers: good.servers, inputs: good.inputs, problems: [...layer.problems, kept] };
  }

  private publish(): void {
    this.watchEnvFiles();
    this.snapshot = toSnapshot(mergeLayers(this.layers), this.layers, this.snapshot.version + 1);
    try {
      this.emitter.fire(this.snapshot);
    } catch (error) {
      this.onError(error);
    }
  }
}

/** Tells two reads of a file apart: the kind of read and, for text, the sha256 of the text. */
function readDigest(read: ConfigRead): string {
  return read.kind === 'text' ? `text:${createHash('sha256').update(read.text).digest('hex')}` : read.kind;
}

/** The workspace folders: those the project and local layers belong to. */
function workspaceFolders(specs: readonly LayerSpec[]): string[] {
  return [...new Set(specs.filter((spec) => spec.scope === 'project' || spec.scope === 'local').flatMap((spec) => (spec.folder === undefined ? [] : [spec.folder])))];
}

/** Identifies a layer across setSpecs calls, so a broken file keeps its last good servers when folders change. */
function specKey(spec: LayerSpec): string {
  return JSON.stringify([spec.scope, spec.folder ?? null, spec.file, spec.root ?? [], spec.label ?? null]);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
