// The person's trust decisions about project servers, kept outside the repository. A decision is bound
// to (workspace folder, server name, fingerprint): a repository can never swap the command under a
// name that was approved, because the new definition has another fingerprint and asks again. "Don't
// trust" is remembered the same way, for that exact definition only.
import type { EffectiveServer, LaunchDefinition } from '../config/types';
import { Emitter, type Event } from '../event';
import { launchDiff, storedLaunch, type LaunchChange, type StoredLaunch } from './launchDiff';
import type { SecretDigest } from './secretDigest';
import { trustKey } from './trustKey';

/**
 * Where a store keeps its JSON document (a file in the extension's global storage, a `--trust-store`
 * file for the CLI). `read()` resolves `undefined` when there is nothing yet; an unreadable or corrupt
 * document is reported by the implementation and also resolves `undefined` — it never rejects.
 */
export interface DocumentStorage {
  read(): Promise<unknown>;
  write(document: unknown): Promise<void>;
}

export type TrustStorage = DocumentStorage;

/** What a person decided about one exact launch definition. */
export type TrustState = 'trusted' | 'refused';

/**
 * One remembered decision. `launch` is the definition as a person saw it (arguments and URL after
 * redaction) with env, header and env file values as salted digests: no secret is stored.
 */
export interface TrustRecord {
  fingerprint: string;
  launch: StoredLaunch;
  /** ISO 8601 time of the decision. */
  at: string;
}

/** The decisions about one server name of one workspace folder: at most one trusted and one refused definition. */
export interface ServerTrust {
  trusted?: TrustRecord;
  refused?: TrustRecord;
}

/** The stored document, version 1. */
export interface TrustData {
  version: typeof TRUST_DATA_VERSION;
  /** Workspace folder (absolute path) → server name → decisions. */
  workspaces: Record<string, Record<string, ServerTrust>>;
}

export const TRUST_DATA_VERSION = 1;

/** One workspace folder's decisions, for listing. */
export interface WorkspaceTrust {
  folder: string;
  servers: ({ name: string } & ServerTrust)[];
}

/** Read-only lookups, all the pure trust decision needs. */
export interface TrustLookup {
  get(folder: string, name: string, fingerprint: string): TrustState | undefined;
  lastTrusted(folder: string, name: string): StoredLaunch | undefined;
  /** What changed from the definition last trusted under the name to `launch`; undefined when none was trusted. */
  changesSince(folder: string, name: string, launch: LaunchDefinition): LaunchChange[] | undefined;
}

export interface TrustStoreOptions {
  /** The salted digest of this installation (secret values are kept only as such digests). */
  digest: SecretDigest;
  /** Told when the stored document could not be used (it is then treated as empty). */
  onProblem?(message: string): void;
  now?(): Date;
}

/** Decisions in memory: folder → name → decisions. Maps, because names come from a repository ("__proto__" is a valid server name). */
type Decisions = Map<string, Map<string, ServerTrust>>;

/**
 * The decisions, in memory for synchronous lookups (the start gate asks synchronously) and written
 * through to its storage. Each change re-reads the document first, so a decision made meanwhile by
 * another writer (the CLI, another window) is kept.
 */
export class TrustStore implements TrustLookup {
  private readonly changeEmitter = new Emitter<void>();
  /** Fires after a decision was added or removed (the gate should be asked again). */
  readonly onDidChange: Event<void> = this.changeEmitter.event;
  private decisions: Decisions = new Map();
  /** Whether the storage was read at least once: before, the store knows nothing and answers nothing. */
  private read = false;
  private queue: Promise<void> = Promise.resolve();

  private constructor(private readonly storage: TrustStorage, private readonly options: TrustStoreOptions) {}

  /** A store with the decisions found in `storage` (none if it is empty, unreadable or corrupt). */
  static async load(storage: TrustStorage, options: TrustStoreOptions): Promise<TrustStore> {
    const store = TrustStore.unread(storage, options);
    await store.reload();
    return store;
  }

  /**
   * A store that has not read its storage yet, for a host that reads it later (activation does not wait
   * for the file): until the first reload() resolved, every lookup throws rather than answer "never
   * decided" for a decision that is only not read yet.
   */
  static unread(storage: TrustStorage, options: TrustStoreOptions): TrustStore {
    return new TrustStore(storage, options);
  }

  /** What was decided about this exact definition, if anything. */
  get(folder: string, name: string, fingerprint: string): TrustState | undefined {
    const entry = this.readDecisions().get(folder)?.get(name);
    if (entry?.trusted?.fingerprint === fingerprint) return 'trusted';
    if (entry?.refused?.fingerprint === fingerprint) return 'refused';
    return undefined;
  }

  /** The definition last trusted under this name (secret values as digests), to show what changed. */
  lastTrusted(folder: string, name: string): StoredLaunch | undefined {
    const launch = this.readDecisions().get(folder)?.get(name)?.trusted?.launch;
    return launch === undefined ? undefined : cloneLaunch(launch);
  }

  changesSince(folder: string, name: string, launch: LaunchDefinition): LaunchChange[] | undefined {
    const previous = this.readDecisions().get(folder)?.get(name)?.trusted?.launch;
    return previous === undefined ? undefined : launchDiff(previous, launch, this.options.digest);
  }

  /** Trusts the server's current definition; it replaces any definition trusted before under its name. */
  trust(server: EffectiveServer): Promise<void> {
    return this.change(server, (entry, record) => {
      entry.trusted = record;
      if (entry.refused?.fingerprint === record.fingerprint) delete entry.refused;
    });
  }

  /** Remembers "don't trust" for the server's current definition: not asked again until the definition changes. */
  refuse(server: EffectiveServer): Promise<void> {
    return this.change(server, (entry, record) => {
      entry.refused = record;
      if (entry.trusted?.fingerprint === record.fingerprint) delete entry.trusted;
    });
  }

  /** Forgets every decision about the name in that folder; the next start asks again. */
  revoke(folder: string, name: string): Promise<void> {
    return this.enqueue(async () => {
      await this.reload();
      const servers = this.decisions.get(folder);
      if (servers?.get(name) === undefined) return;
      servers.delete(name);
      if (servers.size === 0) this.decisions.delete(folder);
      await this.save();
    });
  }

  /** Every decision, grouped per workspace folder; folders and names in code-unit order. */
  list(): WorkspaceTrust[] {
    const decisions = this.readDecisions();
    return [...decisions.keys()].sort(compareText).map((folder) => {
      const servers = decisions.get(folder)!;
      return {
        folder,
        servers: [...servers.keys()].sort(compareText).map((name) => ({ name, ...cloneTrust(servers.get(name)!) })),
      };
    });
  }

  /** Reads the storage again (e.g. after another process changed it). */
  async reload(): Promise<void> {
    const { data, problems } = parseTrustData(await this.storage.read());
    // Records written by older versions kept arguments and URLs as written: they are brought into the
    // stored form here (so nothing shows them), and the file is rewritten so at the next decision.
    const normalize = (entry: ServerTrust): ServerTrust => {
      const kept: ServerTrust = {};
      if (entry.trusted) kept.trusted = { ...entry.trusted, launch: storedLaunch(entry.trusted.launch, this.options.digest) };
      if (entry.refused) kept.refused = { ...entry.refused, launch: storedLaunch(entry.refused.launch, this.options.digest) };
      return kept;
    };
    this.decisions = new Map(Object.entries(data.workspaces).map(([folder, servers]) =>
      [folder, new Map(Object.entries(servers).map(([name, entry]) => [name, normalize(entry)]))]));
    this.read = true;
    for (const problem of problems) this.options.onProblem?.(problem);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  /** The decisions, once read: asking earlier is a host's mistake, told as such (never a silent "undecided"). */
  private readDecisions(): Decisions {
    if (!this.read) throw new Error('the trust store was asked before its decisions were read');
    return this.decisions;
  }

  private change(server: EffectiveServer, apply: (entry: ServerTrust, record: TrustRecord) => void): Promise<void> {
    const key = trustKey(server);
    if (key === undefined) {
      return Promise.reject(new Error(`server '${server.id}' belongs to no workspace folder and reads none of its files: it needs no trust`));
    }
    const { folder, name } = key;
    const record: TrustRecord = {
      fingerprint: server.fingerprint,
      launch: storedLaunch(server.launch, this.options.digest),
      at: (this.options.now?.() ?? new Date()).toISOString(),
    };
    return this.enqueue(async () => {
      await this.reload();
      let servers = this.decisions.get(folder);
      if (servers === undefined) this.decisions.set(folder, servers = new Map());
      let entry = servers.get(name);
      if (entry === undefined) servers.set(name, entry = {});
      apply(entry, record);
      await this.save();
    });
  }

  private async save(): Promise<void> {
    const data: TrustData = {
      version: TRUST_DATA_VERSION,
      // Object.fromEntries defines own properties, so any name is stored as written.
      workspaces: Object.fromEntries([...this.decisions].map(([folder, servers]) => [folder, Object.fromEntries(servers)])),
    };
    await this.storage.write(data);
    this.changeEmitter.fire();
  }

  /** Changes run one after another, so two quick decisions cannot overwrite each other. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** A document with no decision. */
export function emptyTrustData(): TrustData {
  return { version: TRUST_DATA_VERSION, workspaces: {} };
}

/**
 * Validates what was stored. Never throws: what cannot be used is left out and described in
 * `problems`; a document of another version or shape is treated as empty.
 */
export function parseTrustData(value: unknown): { data: TrustData; problems: string[] } {
  const data = emptyTrustData();
  if (value === undefined) return { data, problems: [] };
  if (!isObject(value) || !isObject(value.workspaces)) {
    return { data, problems: ['the trust store is not a trust document (expected {"version": 1, "workspaces": {…}}); it is treated as empty'] };
  }
  if (value.version !== TRUST_DATA_VERSION) {
    return { data, problems: [`the trust store has version ${JSON.stringify(value.version)}, this version reads ${TRUST_DATA_VERSION}; it is treated as empty`] };
  }
  const problems: string[] = [];
  for (const [folder, servers] of Object.entries(value.workspaces)) {
    if (!isObject(servers)) { problems.push(`trust store: workspace "${folder}" is not an object; ignored`); continue; }
    for (const [name, entry] of Object.entries(servers)) {
      const trusted = isObject(entry) ? parseRecord(entry.trusted) : 'invalid';
      const refused = isObject(entry) ? parseRecord(entry.refused) : 'invalid';
      if (trusted === 'invalid' || refused === 'invalid') {
        problems.push(`trust store: the decision about "${name}" in "${folder}" is malformed; ignored`);
        continue;
      }
      const kept: ServerTrust = {};
      if (trusted !== undefined) kept.trusted = trusted;
      if (refused !== undefined) kept.refused = refused;
      if (!Object.prototype.hasOwnProperty.call(data.workspaces, folder)) defineOwn(data.workspaces, folder, {});
      defineOwn(data.workspaces[folder], name, kept);
    }
  }
  return { data, problems };
}

function parseRecord(value: unknown): TrustRecord | undefined | 'invalid' {
  if (value === undefined) return undefined;
  if (!isObject(value) || typeof value.fingerprint !== 'string' || typeof value.at !== 'string') return 'invalid';
  const launch = parseLaunch(value.launch);
  return launch === undefined ? 'invalid' : { fingerprint: value.fingerprint, launch, at: value.at };
}

const TRANSPORTS: readonly string[] = ['stdio', 'http', 'sse', 'ws'];

function parseLaunch(value: unknown): StoredLaunch | undefined {
  if (!isObject(value) || typeof value.type !== 'string' || !TRANSPORTS.includes(value.type)) return undefined;
  if (!Array.isArray(value.args) || !value.args.every((arg) => typeof arg === 'string')) return undefined;
  if (!isStringMap(value.env) || !isStringMap(value.headers)) return undefined;
  if (value.envFileVars !== undefined && !isStringMap(value.envFileVars)) return undefined;
  if (value.runnerConfig !== undefined && !(Array.isArray(value.runnerConfig) && value.runnerConfig.every(isRunnerConfigFile))) return undefined;
  if (value.roots !== undefined && value.roots !== false && !(Array.isArray(value.roots) && value.roots.every((root) => typeof root === 'string'))) return undefined;
  const optional = ['command', 'cwd', 'url', 'envFile', 'maskedArgs'] as const;
  if (optional.some((key) => value[key] !== undefined && typeof value[key] !== 'string')) return undefined;
  return cloneLaunch(value as unknown as StoredLaunch);
}

function cloneTrust(entry: ServerTrust): ServerTrust {
  const copy: ServerTrust = {};
  if (entry.trusted) copy.trusted = { ...entry.trusted, launch: cloneLaunch(entry.trusted.launch) };
  if (entry.refused) copy.refused = { ...entry.refused, launch: cloneLaunch(entry.refused.launch) };
  return copy;
}

/** Sets an own property even for a key such as "__proto__" (plain assignment would change the prototype). */
function defineOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

function cloneLaunch(launch: StoredLaunch): StoredLaunch {
  return {
    type: launch.type,
    ...(launch.command !== undefined ? { command: launch.command } : {}),
    args: [...launch.args],
    env: { ...launch.env },
    ...(launch.envFile !== undefined ? { envFile: launch.envFile } : {}),
    ...(launch.envFileVars !== undefined ? { envFileVars: { ...launch.envFileVars } } : {}),
    ...(launch.cwd !== undefined ? { cwd: launch.cwd } : {}),
    ...(launch.url !== undefined ? { url: launch.url } : {}),
    headers: { ...launch.headers },
    ...(launch.maskedArgs !== undefined ? { maskedArgs: launch.maskedArgs } : {}),
    ...(launch.runnerConfig !== undefined ? { runnerConfig: launch.runnerConfig.map((entry) => ({ ...entry, settings: [...entry.settings] })) } : {}),
    ...(launch.roots !== undefined ? { roots: launch.roots === false ? false : [...launch.roots] } : {}),
  };
}

function isRunnerConfigFile(value: unknown): boolean {
  return isObject(value) && typeof value.file === 'string' && typeof value.digest === 'string'
    && Array.isArray(value.settings) && value.settings.every((item) => typeof item === 'string')
    && (value.unreadable === undefined || value.unreadable === true);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringMap(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((item) => typeof item === 'string');
}

/** Code-unit order: the same on every machine. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
