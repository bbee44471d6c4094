// Owns the config service, the sources that feed it and the diagnostics it produces, and offers one
// snapshot plus one change event to everything that shows or uses the configuration.
import * as vscode from 'vscode';
import { counted } from '../../protocol/counts';
import { ConfigService, type ConfigServiceOptions, type ConfigSnapshot } from '../../core/config';
import { MAX_CONFIG_BYTES, type ConfigFileSystem } from '../../core/config/ports';
import type { ConfigSources } from './configSources';
import { registerConfigQuickFixes } from './configQuickFixes';
import { ConfigDiagnostics } from './diagnostics';

export interface ConfigAdapterOptions {
  sources: ConfigSources;
  fileSystem: ConfigFileSystem;
  log: vscode.LogOutputChannel;
  /** Passed to the service: how long to gather file events before re-reading. */
  throttleMs?: number;
  /** Passed to the service: how project servers' env files are parsed and digested. */
  envFiles?: ConfigServiceOptions['envFiles'];
  /**
   * What every read waits for first (the extension's own state: no server may be seen before its trust
   * decisions are read); when it rejects, nothing is read, ever.
   */
  readsAfter?: () => Promise<void>;
}

export class ConfigAdapter implements vscode.Disposable {
  private readonly service: ConfigService;
  private readonly diagnostics = new ConfigDiagnostics();
  private readonly changed = new vscode.EventEmitter<ConfigSnapshot>();
  /** Fires with the new snapshot after any file, setting, folder or registration change was read. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  /** Spec updates run one after another, so an older computation never lands after a newer one. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: ConfigAdapterOptions) {
    this.service = new ConfigService(options.fileSystem, {
      throttleMs: options.throttleMs,
      envFiles: options.envFiles,
      onError: (error) => options.log.error('config:', error instanceof Error ? error : String(error)),
    });
    this.disposables.push(
      this.changed,
      this.diagnostics,
      // The Quick Fixes of problems that know their fix ("did you mean"), from the current snapshot.
      registerConfigQuickFixes(() => this.service.current.problems),
      this.service,
      this.service.onDidChange((snapshot) => this.onSnapshot(snapshot)),
      options.sources.onDidChange(() => { void this.applySpecs(); }),
    );
  }

  /** The latest snapshot. */
  get current(): ConfigSnapshot {
    return this.service.current;
  }

  /**
   * Whether the file on disk is still what the current configuration was read from (false while a
   * change is on its way: a prompt built from the configuration would not show what is on disk).
   */
  async matchesDisk(file: string): Promise<boolean> {
    return this.service.isCurrentRead(file, await this.options.fileSystem.read(file, MAX_CONFIG_BYTES));
  }

  /** Reads every layer for the first time; resolves once the first snapshot is in. */
  start(): Promise<void> {
    return this.applySpecs();
  }

  /** Re-reads every file now, with the sources as they are now (the "Reload Server Configuration" command). */
  reload(): Promise<void> {
    return this.enqueue('reload', () => this.service.setSpecs(this.options.sources.specs()));
  }

  dispose(): void {
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
  }

  private applySpecs(): Promise<void> {
    return this.enqueue('update sources', () => this.service.setSpecs(this.options.sources.specs()));
  }

  private enqueue(what: string, task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(this.options.readsAfter).then(task).catch((error: unknown) => {
      this.options.log.error(`config: could not ${what}:`, error instanceof Error ? error : String(error));
    });
    this.queue = run;
    return run;
  }

  private onSnapshot(snapshot: ConfigSnapshot): void {
    this.diagnostics.publish(snapshot.problems);
    const log = this.options.log;
    log.info(`config v${snapshot.version}: ${counted(snapshot.servers.length, 'server')}, ${snapshot.shadowed.length} shadowed, `
      + `${counted(snapshot.problems.length, 'problem')} from ${counted(snapshot.layers.length, 'layer')}`);
    for (const problem of snapshot.problems) {
      log.debug(`config problem ${problem.code} at ${problem.file}:${problem.line}:${problem.column}: ${problem.message}`);
    }
    this.changed.fire(snapshot);
  }
}
