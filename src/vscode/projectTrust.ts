// Trust of project servers in the extension: the decisions kept in the extension's global storage
// (outside every repository), the gate the registry asks, the prompt, Restricted Mode and verified
// repositories — and the events that make the registry ask the gate again.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EffectiveServer, ShadowedServer } from '../core/config/types';
import {
  launchDangerFlags, TrustGate, TrustPrompts, TrustStore,
  type DangerFlag, type DangerFlagContext, type SecretDigest, type TrustAnswer, type TrustDecision, type TrustPrompter,
} from '../core/trust';
import type { ShellParser } from '../core/shell/syntax';
import { loadBashParser } from '../node/bashParser';
import { dangerFlagContext } from '../node/dangerFlagContext';
import { JsonFileStore } from '../node/jsonFileStore';
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
    readonly current: { readonly servers: readonly EffectiveServer[]; readonly shadowed: readonly ShadowedServer[] };
    readonly onDidChange: vscode.Event<unknown>;
  };
  log: vscode.LogOutputChannel;
  /** The installation's salted digest (secret values are stored only as such digests). */
  digest: SecretDigest;
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
  private flagContext: DangerFlagContext;

  private constructor(readonly store: TrustStore, readonly verified: VerifiedFolders, private readonly options: ProjectTrustOptions, private readonly shellParser: ShellParser) {
    this.flagContext = this.makeFlagContext();
    this.gate = new TrustGate(store, {
      isRestricted: () => !vscode.workspace.isTrusted,
      isVerified: (folder) => verified.isVerified(folder),
      dangerFlags: (server) => launchDangerFlags(server, this.flagContext),
    });
    this.prompts = new TrustPrompts({
      config: () => options.config.current,
      gate: this.gate,
      store,
      prompter: () => this.prompter,
      review: (entries) => reviewDefinitions(entries, (ids) => { void this.prompts.ask(ids); }),
      ready: () => verified.idle(),
      onProblem: (message) => options.log.warn(`trust: ${message}`),
    });
  }

  /** Loads the remembered decisions and checks which folders are verified repositories. */
  static async create(options: ProjectTrustOptions): Promise<ProjectTrust> {
    // The bash parser (danger flags) compiles while the store is read and the remotes are checked.
    const shellParser = loadBashParser();
    shellParser.catch(() => undefined); // awaited below; a failure is thrown there, not reported as unhandled first
    const onProblem = (message: string): void => options.log.warn(`trust store: ${message}`);
    const storage = new JsonFileStore(path.join(options.storageDir, TRUST_STORE_FILE), { onProblem });
    const store = await TrustStore.load(storage, { onProblem, digest: options.digest });
    const verified = new VerifiedFolders(options.folders, options.log);
    await verified.refresh();
    return new ProjectTrust(store, verified, options, await shellParser);
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
        this.flagContext = this.makeFlagContext();
        this.gate.clearFlags();
      }),
      this.options.config.onDidChange(() => { void this.prompts.check(); }),
    );
  }

  /** Whether the server may start without asking anyone. */
  isAllowed(server: EffectiveServer): boolean {
    return this.gate.isAllowed(server);
  }

  decide(server: EffectiveServer): TrustDecision {
    return this.gate.decide(server);
  }

  flags(server: EffectiveServer): readonly DangerFlag[] {
    return this.gate.flags(server);
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

  private makeFlagContext(): DangerFlagContext {
    return dangerFlagContext({ workspaceFolders: [...this.options.folders()], userHome: os.homedir(), env: process.env, shellParser: this.shellParser });
  }
}
