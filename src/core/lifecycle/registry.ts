// All servers of the workspace. reconcile() turns a new list of effective servers into the fewest
// actions: start what was added, stop what was removed, restart only what changed. Every start runs
// in parallel and nothing here awaits one; the start gate keeps project servers parked until allowed.
// It offers no way to call a tool: at construction it hands its tool caller to the tool call gate
// (src/core/calls), which is the only code that can use it.
import { handOverToolCaller } from '../calls/toolCallGate';
import { DisposableStore, type Disposable } from '../disposable';
import { Emitter, type Event } from '../event';
import type { EffectiveServer } from '../config/types';
import { systemClock, type Clock } from './clock';
import type { CompletionRequest, CompletionResult } from './ports';
import type { ResourceUpdate } from './resourceWatchAccess';
import { isLive, wantOf, type Entry, type Want } from './registryEntry';
import type { ServerRegistryOptions } from './registryOptions';
export type { ServerRegistryOptions } from './registryOptions';
import { decideRun, type DefinitionFacts, type GateAnswer, type RunDecision } from './runDecision';
import { requestStart, type AskTrust, type StartFacts, type StartResult } from './startRequest';
import {
  ServerController, type CallOptions, type CatalogChange, type GetPromptResult, type ReadResourceResult,
  type SendToolCall, type ServerStateChange, type ServerView,
} from './serverController';
import { DEFAULT_LIFECYCLE_SETTINGS, mergeSettings, type LifecycleSettings } from './settings';
import { ServerState } from './state';
import { summarize, type StartupSummary } from './summary';
import type { McpLogLevel, Root } from './types';

/** Every server's controller, kept in step with the configuration. */
export class ServerRegistry implements Disposable {
  private readonly stateEmitter = new Emitter<ServerStateChange>();
  private readonly catalogEmitter = new Emitter<CatalogChange>();
  private readonly serversEmitter = new Emitter<void>();
  /** Any server's state changed. */
  readonly onDidChangeState: Event<ServerStateChange> = this.stateEmitter.event;
  /** One catalog kind of one server changed. */
  readonly onDidChangeCatalog: Event<CatalogChange> = this.catalogEmitter.event;
  /** Servers were added or removed by reconcile(). */
  readonly onDidChangeServers: Event<void> = this.serversEmitter.event;
  private readonly resourceEmitter = new Emitter<ResourceUpdate>();
  /** A resource a server was asked to watch changed (`notifications/resources/updated`). */
  readonly onDidUpdateResource: Event<ResourceUpdate> = this.resourceEmitter.event;

  private entries = new Map<string, Entry>();
  /** Fingerprints project servers were explicitly started with (the in-memory side of the gate). */
  private readonly explicitStarts = new Map<string, string>();
  private readonly removing = new Set<Promise<void>>();
  private currentSettings: LifecycleSettings;
  private roots: Root[] = [];
  private lastServers: EffectiveServer[] = [];
  private readonly clock: Clock;
  private disposed = false;

  constructor(private readonly options: ServerRegistryOptions) {
    this.clock = options.clock ?? systemClock;
    this.currentSettings = mergeSettings({ ...DEFAULT_LIFECYCLE_SETTINGS }, options.settings ?? {});
    handOverToolCaller(this, (id, name, args, callOptions) => {
      const entry = this.entries.get(id);
      return entry ? entry.sendToolCall(name, args, callOptions) : Promise.reject(unknownServer(id));
    });
  }

  /** The settings in effect. */
  get settings(): Readonly<LifecycleSettings> {
    return this.currentSettings;
  }

  /**
   * Brings the running set in line with `servers` without waiting for anything: added servers start,
   * removed ones stop, a changed fingerprint restarts only that server, an unchanged one just takes the
   * new metadata. Disabled servers are parked as `disabled`, servers the gate refuses as `needsTrust`
   * (a running server whose new definition the gate leaves undecided keeps its old one meanwhile).
   */
  reconcile(servers: readonly EffectiveServer[]): void {
    if (this.disposed) return;
    this.lastServers = [...servers];
    const next = new Map<string, EffectiveServer>();
    for (const server of servers) if (!next.has(server.id)) next.set(server.id, server);

    const actions: (() => void)[] = [];
    let membershipChanged = false;
    for (const [id, entry] of this.entries) {
      if (next.has(id)) continue;
      membershipChanged = true;
      actions.push(() => this.remove(id, entry));
    }
    const entries = new Map<string, Entry>();
    for (const server of next.values()) {
      const existing = this.entries.get(server.id);
      if (existing) {
        entries.set(server.id, existing);
        actions.push(this.update(existing, server));
      } else {
        membershipChanged = true;
        const entry = this.create(server);
        entries.set(server.id, entry);
        actions.push(() => this.apply(entry, entry.want, true));
      }
    }
    this.entries = entries;
    for (const action of actions) action();
    if (membershipChanged) this.serversEmitter.fire();
  }

  /** Re-asks the gate for every server (e.g. after the trust store changed): newly allowed ones start, newly refused ones are parked. */
  applyGate(): void {
    this.reconcile(this.lastServers);
  }

  /** An explicit start (a person asked): passes the gate for this fingerprint and resets the restart budget. */
  start(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return Promise.reject(unknownServer(id));
    if (entry.want === 'needsTrust') {
      this.explicitStarts.set(id, entry.controller.server.fingerprint);
      entry.want = 'run';
    }
    return entry.controller.start();
  }

  stop(id: string): Promise<void> {
    const entry = this.entries.get(id);
    return entry ? entry.controller.stop() : Promise.reject(unknownServer(id));
  }

  /**
   * A person's Start, with the whole policy (see startRequest.ts): allowed starts, needing trust asks
   * through `askTrust` first, disabled, held for another host or Restricted Mode throws StartRefusedError.
   */
  requestStart(id: string, askTrust: AskTrust): Promise<StartResult> {
    return requestStart({ startFacts: (target) => this.startFacts(target), start: (target) => this.start(target) }, id, askTrust);
  }

  /** A person's Restart: a parked server, or one whose changed definition waits for trust, is started as by requestStart. */
  async requestRestart(id: string, askTrust: AskTrust): Promise<StartResult> {
    const entry = this.entries.get(id);
    if (!entry) throw unknownServer(id);
    const kind = entry.controller.state.kind;
    if (kind === 'needsTrust' || kind === 'disabled' || entry.held !== undefined) return this.requestStart(id, askTrust);
    await entry.controller.restart('requested');
    return 'started';
  }

  /** An explicit restart; a server waiting for trust is started as by start(id). */
  restart(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return Promise.reject(unknownServer(id));
    if (entry.want === 'needsTrust') return this.start(id);
    return entry.controller.restart('requested');
  }

  /**
   * Restarts, in parallel, every server that is running, starting, waiting to restart, crashed or
   * failed; resolves with their ids once each is ready or failed.
   */
  async restartAll(): Promise<string[]> {
    const restartable = [...this.entries].filter(([, { controller }]) => ServerState.canRestart(controller.state));
    await Promise.all(restartable.map(([, { controller }]) => controller.restart('requested: Restart All')));
    return restartable.map(([id]) => id);
  }

  /** Stops every server in parallel; resolves when every staged close (including those of removed servers) has finished. */
  async stopAll(): Promise<void> {
    await Promise.all([...[...this.entries.values()].map(({ controller }) => controller.stop()), ...this.removing]);
  }

  get(id: string): ServerView | undefined {
    return this.entries.get(id)?.controller;
  }

  /** The changed definition of a server that still runs its previous one until the gate decides, if any. */
  heldDefinition(id: string): EffectiveServer | undefined {
    return this.entries.get(id)?.held;
  }

  /** Every server, in configuration order. */
  list(): ServerView[] {
    return [...this.entries.values()].map(({ controller }) => controller);
  }

  readResource(id: string, uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    const entry = this.entries.get(id);
    return entry ? entry.controller.readResource(uri, options) : Promise.reject(unknownServer(id));
  }

  /** Whether the server is ready and offers resource subscriptions. */
  canWatchResources(id: string): boolean {
    return this.entries.get(id)?.controller.resources.supported ?? false;
  }

  /** Starts (`on`) or stops watching a resource of a ready server; who watches what is core/subscriptions' bookkeeping. */
  watchResource(id: string, uri: string, on: boolean): Promise<void> {
    const entry = this.entries.get(id);
    return entry ? entry.controller.resources.set(uri, on) : Promise.reject(unknownServer(id));
  }

  getPrompt(id: string, name: string, args: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    const entry = this.entries.get(id);
    return entry ? entry.controller.getPrompt(name, args, options) : Promise.reject(unknownServer(id));
  }

  /** Suggestions for an argument of a server's prompt or resource template (`completion/complete`). */
  complete(id: string, request: CompletionRequest, options?: CallOptions): Promise<CompletionResult> {
    const entry = this.entries.get(id);
    return entry ? entry.controller.complete(request, options) : Promise.reject(unknownServer(id));
  }

  /** The workspace folders as roots; every ready server is told when they change. */
  setRoots(roots: readonly Root[]): void {
    const next = roots.map((root) => ({ ...root }));
    const changed = JSON.stringify(next) !== JSON.stringify(this.roots);
    this.roots = next;
    if (!changed) return;
    for (const { controller } of this.entries.values()) controller.notifyRootsChanged();
  }

  /** The current roots (what ConnectRequest.roots returns). */
  getRoots(): Root[] {
    return this.roots.map((root) => ({ ...root }));
  }

  /** Remembers the level and sends it to every ready server that declared logging. */
  setLogLevel(level: McpLogLevel): void {
    this.currentSettings = { ...this.currentSettings, logLevel: level };
    for (const { controller } of this.entries.values()) controller.setLogLevel(level);
  }

  /** Applies new settings: timeouts and restart policy from the next start or request, trace from the next start, the log level at once. */
  updateSettings(partial: Partial<LifecycleSettings>): void {
    const previousLevel = this.currentSettings.logLevel;
    this.currentSettings = mergeSettings(this.currentSettings, partial);
    if (this.currentSettings.logLevel !== previousLevel) this.setLogLevel(this.currentSettings.logLevel);
  }

  /** Where every server stands right now. */
  summary(): StartupSummary {
    return summarize(this.list());
  }

  /** Resolves once no server is starting, stopping, crashed or waiting to restart (each is ready, failed, stopped, needsTrust or disabled). */
  settled(): Promise<StartupSummary> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        subscription.dispose();
        resolve(this.summary());
      };
      const check = (): void => {
        if (!this.list().some(({ state }) => ServerState.isTransient(state))) finish();
      };
      const subscription = this.onDidChangeState(check);
      check();
      // A disposed registry fires nothing more; settle with what there is.
      if (this.disposed) finish();
    });
  }

  /** Resolves when every ready server's catalog has been listed. */
  async catalogsLoaded(): Promise<void> {
    await Promise.all(this.list().map((view) => view.whenCatalogLoaded()));
  }

  /** Stops every server without waiting (call `await stopAll()` first to wait for the processes to go). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const entry of this.entries.values()) {
      entry.controller.dispose();
      entry.relay.dispose();
    }
    this.entries.clear();
    this.stateEmitter.dispose();
    this.catalogEmitter.dispose();
    this.serversEmitter.dispose();
    this.resourceEmitter.dispose();
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────────

  private create(server: EffectiveServer): Entry {
    let sendToolCall: SendToolCall | undefined;
    const controller = new ServerController({
      server,
      connector: this.options.connector,
      log: this.options.logFor(server),
      clock: this.clock,
      settings: () => this.currentSettings,
      roots: () => this.getRoots(),
      grantToolCalls: (send) => { sendToolCall = send; },
    });
    if (sendToolCall === undefined) throw new Error('the server controller did not grant its tool caller');
    const relay = new DisposableStore();
    relay.add(controller.onDidChangeState((change) => this.stateEmitter.fire(change)));
    relay.add(controller.onDidChangeCatalog((change) => this.catalogEmitter.fire(change)));
    relay.add(controller.resources.onDidUpdate((update) => this.resourceEmitter.fire(update)));
    return { controller, sendToolCall, want: wantOf(this.decide(server, undefined)), parkReason: this.options.hostedElsewhere?.(server), relay };
  }

  /** Returns the action for an existing server whose definition may have changed. */
  private update(entry: Entry, server: EffectiveServer): () => void {
    const decision = this.decide(server, entry);
    if (decision.kind === 'keepPrevious') {
      entry.held = server;
      return () => undefined;
    }
    entry.held = undefined;
    const fingerprintChanged = entry.controller.server.fingerprint !== server.fingerprint;
    const allowedFor = this.explicitStarts.get(server.id);
    if (allowedFor !== undefined && allowedFor !== server.fingerprint) this.explicitStarts.delete(server.id);
    entry.controller.setServer(server);
    const previous = entry.want;
    const previousReason = entry.parkReason;
    const want = wantOf(decision);
    entry.want = want;
    entry.parkReason = this.options.hostedElsewhere?.(server);
    const reasonChanged = want === 'disabled' && entry.parkReason !== previousReason;
    if (!fingerprintChanged && want === previous && !reasonChanged) return () => undefined;
    return () => this.apply(entry, want, previous !== 'run', fingerprintChanged);
  }

  /**
   * Puts a server where `want` says. `fresh`: it was not meant to run before (new, or was parked), so
   * it starts; otherwise a changed fingerprint restarts it unless a person had stopped it.
   */
  private apply(entry: Entry, want: Want, fresh: boolean, fingerprintChanged = false): void {
    const { controller } = entry;
    switch (want) {
      case 'disabled':
        // An entry that says `"disabled": true` needs no reason; one held for another host says why.
        void controller.park(want, entry.controller.server.disabled ? undefined : entry.parkReason);
        return;
      case 'needsTrust':
        void controller.park(want);
        return;
      case 'run':
        if (fresh && this.options.startsOnDemand?.(controller.server) === true) {
          // Allowed now but not in use: it waits as `stopped` (not as the parked state it was held in).
          const parked = controller.state.kind === 'needsTrust' || controller.state.kind === 'disabled';
          if (parked) void controller.retire();
          return;
        }
        if (fresh) void controller.start();
        else if (fingerprintChanged && controller.state.kind !== 'stopped') void controller.restart('its definition changed');
        return;
    }
  }

  private remove(id: string, entry: Entry): void {
    this.explicitStarts.delete(id);
    const closing = entry.controller.retire();
    // The final `stopped` has been relayed; a server re-added under the same id must not hear from the old one.
    entry.relay.dispose();
    const removal = closing.then(() => entry.controller.dispose());
    this.removing.add(removal);
    void removal.then(() => this.removing.delete(removal));
  }

  /**
   * decideRun() for a reconcile. The running definition counts only when it differs from `server` and
   * the gate says "not decided yet" about `server`: only then may it keep running meanwhile.
   */
  private decide(server: EffectiveServer, entry: Entry | undefined): RunDecision {
    const next = this.facts(server);
    if (entry === undefined || entry.controller.server.fingerprint === server.fingerprint || next.gate !== 'undecided') {
      return decideRun({ trigger: 'reconcile', next });
    }
    const live = isLive(entry.controller.state.kind);
    return decideRun({ trigger: 'reconcile', next, running: { ...this.facts(entry.controller.server), live, wanted: entry.want === 'run' } });
  }

  private facts(server: EffectiveServer): DefinitionFacts {
    // A server another host runs is held like a disabled entry: not started, and no Start runs it.
    const disabled = server.disabled || this.options.hostedElsewhere?.(server) !== undefined;
    return { disabled, gate: this.gate(server), startedByPerson: this.explicitStarts.get(server.id) === server.fingerprint };
  }

  private gate(server: EffectiveServer): GateAnswer {
    if (this.options.gate) return this.options.gate(server);
    return server.scope === 'project' ? 'refused' : 'allowed';
  }

  /**
   * The facts of a person's Start. A running server whose definition changed keeps its trusted one
   * until the change is trusted: the gate is asked about the change.
   */
  private startFacts(id: string): StartFacts | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const { state } = entry.controller;
    const facts: StartFacts = { disabled: state.kind === 'disabled', gate: this.gate(entry.held ?? entry.controller.server), startedByPerson: false };
    if (state.kind === 'disabled' && state.reason !== undefined) facts.heldBecause = state.reason;
    return facts;
  }
}

function unknownServer(id: string): Error {
  return new Error(`unknown MCP server: ${id}`);
}
