// Tool definitions pinned per server: the first catalog of a server is the baseline; afterwards a tool
// whose definition hash differs from the pinned one is "changed" (a possible rug pull) until a person
// accepts it, and a tool that appears later is reported as new. Pins are keyed by the server's identity
// (scope, folder, name), not its fingerprint: an updated command must not reset what its tools were.
import type { Scope } from '../config/types';
import { Emitter, type Event } from '../event';
import type { ToolInfo } from '../lifecycle/types';
import { toolDefinitionHash, untitledDefinitionHash, type ToolDefinition } from './toolPin';
import type { DocumentStorage } from '../trust/trustStore';

export type PinStorage = DocumentStorage;

/** Which server the pins belong to. */
export interface ServerIdentity {
  scope: Scope;
  /** The workspace folder of local and project servers. */
  folder?: string;
  name: string;
}

/** The pinned parts of a tool definition, as stored. */
export type PinnedDefinition = ToolDefinition;

export interface ToolPin {
  hash: string;
  /**
   * Set on every pin this version records: its hash covers the title. A pin without it was recorded
   * before titles were covered; when its hash matches the tool without the title, it is upgraded
   * silently (the title becomes part of the pin) instead of turning "changed".
   */
  titled?: true;
  /** The definition as first seen (or as last accepted). */
  definition: PinnedDefinition;
  /** The differing definition last seen, while the tool is changed and not yet accepted. */
  pending?: { hash: string; definition: PinnedDefinition };
}

/** What a catalog showed against the pins. */
export interface CatalogPinResult {
  /** Tools seen for the first time on a server known before (each is pinned now). */
  new: string[];
  /** Tools whose definition differs from the pinned one; they stay here until accepted. */
  changed: { name: string; old: PinnedDefinition; new: PinnedDefinition }[];
  /** Tools matching their pin; on a server's first catalog, every tool (the baseline is recorded silently). */
  unchanged: string[];
}

export interface PinnedServer extends ServerIdentity {
  tools: Record<string, ToolPin>;
}

/** The stored document, version 1. */
export interface PinData {
  version: typeof PIN_DATA_VERSION;
  servers: PinnedServer[];
}

export const PIN_DATA_VERSION = 1;

export interface PinStoreOptions {
  /** Told when the stored document could not be used (it is then treated as empty). */
  onProblem?(message: string): void;
}

/** The pins of every server, in memory for synchronous checks, written through to the storage. */
export class PinStore {
  private readonly changeEmitter = new Emitter<void>();
  /** Fires after pins were recorded or accepted. */
  readonly onDidChange: Event<void> = this.changeEmitter.event;
  private servers = new Map<string, { identity: ServerIdentity; tools: Map<string, ToolPin> }>();
  /** Whether the storage was read at least once: before, the store knows no pin and answers nothing. */
  private read = false;
  private queue: Promise<void> = Promise.resolve();

  private constructor(private readonly storage: PinStorage, private readonly options: PinStoreOptions) {}

  /** A store with the pins found in `storage` (none if it is empty, unreadable or corrupt). */
  static async load(storage: PinStorage, options: PinStoreOptions = {}): Promise<PinStore> {
    const store = PinStore.unread(storage, options);
    await store.reload();
    return store;
  }

  /**
   * A store that has not read its storage yet, for a host that reads it later (activation does not wait
   * for the file): until the first reload() resolved, the synchronous checks throw rather than answer
   * "unchanged" for a pin that is only not read yet. Recording and accepting read the storage first anyway.
   */
  static unread(storage: PinStorage, options: PinStoreOptions = {}): PinStore {
    return new PinStore(storage, options);
  }

  /**
   * Compares a server's current tools with their pins and records what is new. The first catalog of a
   * server becomes its baseline without a finding; later, new tools are pinned and reported once, and
   * changed ones are reported every time until `accept()`.
   */
  recordCatalog(identity: ServerIdentity, tools: readonly ToolInfo[]): Promise<CatalogPinResult> {
    return this.enqueue(async () => {
      await this.reload();
      const key = identityKey(identity);
      const known = this.servers.get(key);
      const result: CatalogPinResult = { new: [], changed: [], unchanged: [] };
      const pins = known?.tools ?? new Map<string, ToolPin>();
      let dirty = known === undefined;
      for (const tool of tools) {
        const definition = pinnedDefinition(tool);
        const hash = toolDefinitionHash(tool);
        const pin = pins.get(tool.name);
        if (pin === undefined) {
          pins.set(tool.name, { hash, titled: true, definition });
          dirty = true;
          (known === undefined ? result.unchanged : result.new).push(tool.name);
        } else if (pin.titled === undefined && pin.pending === undefined && pin.hash === untitledDefinitionHash(tool)) {
          // Pinned before titles were covered, and otherwise the same: the title joins the pin.
          pin.hash = hash;
          pin.titled = true;
          pin.definition = definition;
          dirty = true;
          result.unchanged.push(tool.name);
        } else if (pin.hash === hash) {
          if (pin.pending !== undefined) { delete pin.pending; dirty = true; }
          result.unchanged.push(tool.name);
        } else {
          if (pin.pending?.hash !== hash) { pin.pending = { hash, definition }; dirty = true; }
          result.changed.push({ name: tool.name, old: clone(pin.definition), new: clone(definition) });
        }
      }
      if (known === undefined) this.servers.set(key, { identity: copyIdentity(identity), tools: pins });
      if (dirty) await this.save();
      return result;
    });
  }

  /** A person re-approved a changed tool: its last seen definition becomes the pin. */
  accept(identity: ServerIdentity, toolName: string): Promise<void> {
    return this.enqueue(async () => {
      await this.reload();
      const pin = this.servers.get(identityKey(identity))?.tools.get(toolName);
      if (pin?.pending === undefined) return;
      pin.hash = pin.pending.hash;
      pin.titled = true;
      pin.definition = pin.pending.definition;
      delete pin.pending;
      await this.save();
    });
  }

  /** Whether the tool's definition changed and was not accepted yet (its "always allow" is then suspended). */
  isChanged(identity: ServerIdentity, toolName: string): boolean {
    return this.readPins().get(identityKey(identity))?.tools.get(toolName)?.pending !== undefined;
  }

  /** The pins of one server, or undefined before its first catalog. */
  pins(identity: ServerIdentity): Record<string, ToolPin> | undefined {
    const server = this.readPins().get(identityKey(identity));
    return server === undefined ? undefined : Object.fromEntries([...server.tools].map(([name, pin]) => [name, clone(pin)]));
  }

  /** Forgets a server's pins (its next catalog is a new baseline). */
  forget(identity: ServerIdentity): Promise<void> {
    return this.enqueue(async () => {
      await this.reload();
      if (this.servers.delete(identityKey(identity))) await this.save();
    });
  }

  /** Reads the storage again (e.g. after another window changed it). */
  async reload(): Promise<void> {
    const { data, problems } = parsePinData(await this.storage.read());
    this.servers = new Map(data.servers.map((server) => [
      identityKey(server),
      { identity: copyIdentity(server), tools: new Map(Object.entries(server.tools)) },
    ]));
    this.read = true;
    for (const problem of problems) this.options.onProblem?.(problem);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  /** The pins, once read: asking earlier is a host's mistake, told as such (never a silent "unchanged"). */
  private readPins(): Map<string, { identity: ServerIdentity; tools: Map<string, ToolPin> }> {
    if (!this.read) throw new Error('the tool pins were asked for before they were read');
    return this.servers;
  }

  private async save(): Promise<void> {
    const data: PinData = {
      version: PIN_DATA_VERSION,
      servers: [...this.servers.values()].map(({ identity, tools }) => ({ ...copyIdentity(identity), tools: Object.fromEntries(tools) })),
    };
    await this.storage.write(data);
    this.changeEmitter.fire();
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.then(() => undefined, () => undefined);
    return next;
  }
}

/** The pinned fields of a tool, without the ones left out when absent. */
export function pinnedDefinition(tool: ToolInfo): PinnedDefinition {
  const definition: PinnedDefinition = { name: tool.name, inputSchema: clone(tool.inputSchema) };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== undefined) definition.description = tool.description;
  if (tool.annotations !== undefined) definition.annotations = clone(tool.annotations);
  return definition;
}

/** Validates a stored document; never throws. A document of another version or shape is treated as empty. */
export function parsePinData(value: unknown): { data: PinData; problems: string[] } {
  const data: PinData = { version: PIN_DATA_VERSION, servers: [] };
  if (value === undefined) return { data, problems: [] };
  if (!isObject(value) || !Array.isArray(value.servers)) {
    return { data, problems: ['the tool pin store is not a pin document (expected {"version": 1, "servers": […]}); it is treated as empty'] };
  }
  if (value.version !== PIN_DATA_VERSION) {
    return { data, problems: [`the tool pin store has version ${JSON.stringify(value.version)}, this version reads ${PIN_DATA_VERSION}; it is treated as empty`] };
  }
  const problems: string[] = [];
  for (const server of value.servers) {
    const parsed = parseServer(server);
    if (parsed === undefined) problems.push('tool pin store: a malformed server entry was ignored');
    else data.servers.push(parsed);
  }
  return { data, problems };
}

const SCOPES: readonly string[] = ['managed', 'local', 'project', 'user', 'plugin'];

function parseServer(value: unknown): PinnedServer | undefined {
  if (!isObject(value) || typeof value.name !== 'string' || typeof value.scope !== 'string' || !SCOPES.includes(value.scope)) return undefined;
  if (value.folder !== undefined && typeof value.folder !== 'string') return undefined;
  if (!isObject(value.tools)) return undefined;
  const tools: Record<string, ToolPin> = {};
  for (const [name, pin] of Object.entries(value.tools)) {
    if (!isPin(pin)) return undefined;
    Object.defineProperty(tools, name, { value: pin, enumerable: true, writable: true, configurable: true });
  }
  const server: PinnedServer = { scope: value.scope as Scope, name: value.name, tools };
  if (value.folder !== undefined) server.folder = value.folder;
  return server;
}

function isPin(value: unknown): value is ToolPin {
  if (!isObject(value) || typeof value.hash !== 'string' || !isDefinition(value.definition)) return false;
  if (value.titled !== undefined && value.titled !== true) return false;
  return value.pending === undefined || (isObject(value.pending) && typeof value.pending.hash === 'string' && isDefinition(value.pending.definition));
}

function isDefinition(value: unknown): value is PinnedDefinition {
  return isObject(value) && typeof value.name === 'string' && isObject(value.inputSchema)
    && (value.title === undefined || typeof value.title === 'string')
    && (value.description === undefined || typeof value.description === 'string')
    && (value.annotations === undefined || isObject(value.annotations));
}

/** One string per identity (JSON, so no separator can be forged by a name or a path). */
function identityKey(identity: ServerIdentity): string {
  return JSON.stringify([identity.scope, identity.folder ?? null, identity.name]);
}

function copyIdentity(identity: ServerIdentity): ServerIdentity {
  const copy: ServerIdentity = { scope: identity.scope, name: identity.name };
  if (identity.folder !== undefined) copy.folder = identity.folder;
  return copy;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
