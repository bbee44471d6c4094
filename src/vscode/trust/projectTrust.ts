// Trust of project servers in the extension: the decisions kept in the extension's global storage
// (outside every repository), the gate the registry asks, the prompt, Restricted Mode and verified
// repositories — and the events that make the registry ask the gate again. A config file the person
// is typing in (a keystroke in an open editor in the last minute) is asked about on the Sidebar's card,
// never in the modal; other changes wait for a saved, valid, settled file: what the editors show, when
// they were last typed in, and what the file holds feed TrustPrompts' hold.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { canonicalJson } from '../../core/config/fingerprint';
import type { EffectiveServer, Layer, ShadowedServer } from '../../core/config/types';
import {
  TrustGate, TrustPrompts, TrustStore,
  type DangerFlag, type DeferredDigest, type PromptHoldReason, type TrustAnswer, type TrustCardAnswer, type TrustCardText, type TrustDecision,
  type TrustPrompter,
} from '../../core/trust';
import { JsonFileStore } from '../../node/jsonFileStore';
import { DefinitionAnalysis } from './definitionAnalysis';
import { ModalTrustPrompter, reviewDefinitions } from './trustPrompt';
import { VerifiedFolders } from './verifiedFolders';

/** The store's file name inside the extension's global storage. */
export const TRUST_STORE_FILE = 'trust.json';

export interface ProjectTrustOptions {
  /** Where the store lives: the extension's global storage folder, never a workspace. */
  storageDir: string;
  /** The workspace folders on disk (absolute paths). */
  folders(): readonly string[];
  /** The configuration: its effective servers and the entries they shadow. */
  config: {
    readonly current: { readonly servers: readonly EffectiveServer[]; readonly shadowed: readonly ShadowedServer[]; readonly layers: readonly Layer[] };
    readonly onDidChange: vscode.Event<unknown>;
    /** Whether the file on disk is still what the current configuration was read from. */
    matchesDisk(file: string): Promise<boolean>;
  };
  log: vscode.LogOutputChannel;
  /** The installation's salted digest (secret values are stored only as such digests), usable once loaded. */
  digest: DeferredDigest;
}

/** What the registry is asked to do when the gate's answers may have changed. */
export interface GatedRegistry {
  applyGate(): void;
}

export class ProjectTrust implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when any server's trust decision may have changed (a decision, Restricted Mode, verification). */
  readonly onDidChange = this.changed.event;
  readonly gate: TrustGate;
  readonly prompts: TrustPrompts;
  private prompter: TrustPrompter = new ModalTrustPrompter();
  private readonly analysis: DefinitionAnalysis;
  /** Makes the registry ask the gate again (set by attach). */
  private regate: (() => void) | undefined;
  /** Per config file, what its layer said at the last configuration change: a change restarts the settle delay. */
  private layerKeys = new Map<string, string>();
  /** Per config file, when an editor last had a keystroke in it (a change that left it dirty). */
  private readonly keystrokes = new Map<string, number>();

  private constructor(
    readonly store: TrustStore, readonly verified: VerifiedFolders, private readonly options: ProjectTrustOptions,
    /** Resolves once the remembered decisions were read and the verified folders checked (rejects when the salt could not be had). */
    readonly loaded: Promise<void>,
  ) {
    this.analysis = new DefinitionAnalysis({
      folders: options.folders,
      log: options.log,
      // Definitions that were waiting for their flags are decided now.
      onDidLoad: () => {
        this.gate.clearFlags();
        this.regate?.();
      },
    });
    this.gate = new TrustGate(store, {
      isRestricted: () => !vscode.workspace.isTrusted,
      isVerified: (folder) => verified.isVerified(folder),
      dangerFlags: (server) => this.analysis.flagsOf(server),
    });
    this.prompts = new TrustPrompts({
      config: () => options.config.current,
      gate: this.gate,
      store,
      prompter: () => this.prompter,
      review: (entries) => reviewDefinitions(entries, (ids) => { void this.prompts.ask(ids); }),
      // A prompt shows every definition's flags: it waits for the analysis the gate started.
      ready: async () => { await verified.idle(); await this.analysis.idle(); },
      onProblem: (message) => options.log.warn(`trust: ${message}`),
      files: {
        facts: (file) => ({
          dirty: isDirtyInEditor(file),
          usable: this.layersOf(file).every((layer) => layer.usable),
          editing: { openInEditor: isOpenInEditor(file), lastKeystrokeAt: this.keystrokes.get(file) },
        }),
        changedOnDisk: async (files) => {
          const same = await Promise.all(files.map((file) => options.config.matchesDisk(file)));
          return files.filter((_, i) => !same[i]);
        },
      },
    });
    this.layerKeys = this.currentLayerKeys();
  }

  /**
   * The trust of the workspace's project servers, built at once; its remembered decisions are read and
   * the verified folders checked in the background (`loaded`). Nothing may ask it about a server before
   * `loaded` resolved: the configuration is read only after (see buildContext), so no server is seen earlier.
   */
  static open(options: ProjectTrustOptions): ProjectTrust {
    const onProblem = (message: string): void => options.log.warn(`trust store: ${message}`);
    const storage = new JsonFileStore(path.join(options.storageDir, TRUST_STORE_FILE), { onProblem });
    const verified = new VerifiedFolders(options.folders, options.log);
    const store = TrustStore.unread(storage, { onProblem, digest: options.digest });
    // Read together; the store's records are normalized with the salt, so it is read once the salt is in.
    const loaded = Promise.all([options.digest.loaded.then(() => store.reload()), verified.refresh()]).then(() => undefined);
    return new ProjectTrust(store, verified, options, loaded);
  }

  /**
   * Makes the registry ask the gate again whenever an answer may have changed, and asks the person
   * whenever the configuration brings a server that needs trust. Call after the registry subscribed to
   * the configuration, so a prompt is built from what the registry already has.
   */
  attach(registry: GatedRegistry): vscode.Disposable {
    const regate = (): void => {
      registry.applyGate();
      this.changed.fire();
    };
    this.regate = regate;
    return vscode.Disposable.from(
      this.store.onDidChange(regate),
      this.verified.onDidChange(() => {
        regate();
        void this.prompts.check();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.options.log.info('trust: the workspace is trusted now; project servers may start once you trust them');
        regate();
        void this.prompts.check();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.analysis.reset();
        this.gate.clearFlags();
      }),
      this.options.config.onDidChange(() => {
        // A file whose servers changed (a save, a checkout) is asked about once it stays unchanged for a moment.
        const keys = this.currentLayerKeys();
        // A file seen for the first time (the first read after activation) is not a change: asked at once.
        for (const [file, key] of keys) if (this.layerKeys.has(file) && this.layerKeys.get(file) !== key) this.prompts.touch(file);
        this.layerKeys = keys;
        void this.prompts.check();
      }),
      // Typing in a config file (before any save) and its dirty state: the prompt waits for a saved, settled file.
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (!this.isConfigFile(event.document.uri)) return;
        // A keystroke leaves the document dirty; a reload from disk (a pull while it is open) does not.
        if (event.contentChanges.length > 0 && event.document.isDirty) this.keystrokes.set(event.document.uri.fsPath, Date.now());
        this.prompts.touch(event.document.uri.fsPath);
      }),
      vscode.workspace.onDidSaveTextDocument((document) => {
        if (this.isConfigFile(document.uri)) this.prompts.touch(document.uri.fsPath);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (this.isConfigFile(document.uri)) void this.prompts.check();
      }),
      this.prompts.onDidChangeWaiting(() => this.changed.fire()),
    );
  }

  /** Why the server's trust prompt waits (its file is being edited), or undefined. */
  waiting(server: EffectiveServer): PromptHoldReason | undefined {
    return this.prompts.waiting(server.id);
  }

  decide(server: EffectiveServer): TrustDecision {
    return this.gate.decide(server);
  }

  flags(server: EffectiveServer): readonly DangerFlag[] {
    return this.gate.flags(server);
  }

  /** The cards asking about definitions the person is editing (the Sidebar shows them). */
  cards(): TrustCardText[] {
    return this.prompts.cards();
  }

  /** A person's answer on a card, for exactly the definition it showed (rejects, changing nothing, otherwise). */
  answerCard(serverId: string, fingerprint: string, answer: TrustCardAnswer): Promise<void> {
    return this.prompts.answerCard(serverId, fingerprint, answer);
  }

  /** Asks a person to trust the server (the same prompt, for this server, after any open one). */
  askToTrust(id: string): Promise<TrustAnswer | undefined> {
    return this.prompts.ask([id]);
  }

  /** Replaces the prompter (tests script the answers); undefined restores the modal dialog. */
  setPrompter(prompter: TrustPrompter | undefined): void {
    this.prompter = prompter ?? new ModalTrustPrompter();
  }

  dispose(): void {
    this.prompts.dispose();
    this.verified.dispose();
    this.store.dispose();
    this.changed.dispose();
  }

  private layersOf(file: string): Layer[] {
    return this.options.config.current.layers.filter((layer) => layer.spec.file === file && layer.spec.inline === undefined);
  }

  private isConfigFile(uri: vscode.Uri): boolean {
    return uri.scheme === 'file' && this.options.config.current.layers.some((layer) => layer.spec.inline === undefined && layer.spec.file === uri.fsPath);
  }

  /** Each file-backed layer's servers and whether it parsed, as one comparable string per file. */
  private currentLayerKeys(): Map<string, string> {
    const keys = new Map<string, string>();
    for (const layer of this.options.config.current.layers) {
      if (layer.spec.inline !== undefined) continue;
      const key = canonicalJson({ usable: layer.usable, servers: layer.servers.map((server) => [server.name, server.launch]) });
      keys.set(layer.spec.file, `${keys.get(layer.spec.file) ?? ''}${key}`);
    }
    return keys;
  }
}

/** Whether the file is open in an editor tab (a text editor or a diff of it). */
function isOpenInEditor(file: string): boolean {
  const matches = (uri: vscode.Uri): boolean => uri.scheme === 'file' && uri.fsPath === file;
  return vscode.window.tabGroups.all.some((group) => group.tabs.some(({ input }) =>
    (input instanceof vscode.TabInputText && matches(input.uri))
    || (input instanceof vscode.TabInputTextDiff && (matches(input.original) || matches(input.modified)))));
}

/** Whether an open editor holds unsaved changes of the file. */
function isDirtyInEditor(file: string): boolean {
  return vscode.workspace.textDocuments.some((document) => document.isDirty && document.uri.scheme === 'file' && document.uri.fsPath === file);
}
