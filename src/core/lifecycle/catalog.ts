// A server's catalog: every page of tools, resources, resource templates and prompts, kept sorted so
// the lists given to models are byte-for-byte stable, and refreshed one kind at a time on list_changed,
// or when the server's cache hint for a list (2026-07-28: `ttlMs`) runs out — never before, unless a
// list_changed says the list changed.
import type { Disposable } from '../disposable';
import type { Clock } from './clock';
import { errorMessage } from './errors';
import type { ServerConnection, ServerLog } from './ports';
import { boundListing } from './toolBounds';
import type { Catalog, CatalogItemOf, CatalogKind } from './types';

/** The catalog kinds in display order. */
export const CATALOG_KINDS: readonly CatalogKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

/** Pages listed per kind before giving up on a server that never stops returning a cursor. */
export const DEFAULT_MAX_PAGES = 100;

/** A catalog with nothing in it. */
export function emptyCatalog(): Catalog {
  return { tools: [], resources: [], resourceTemplates: [], prompts: [] };
}

/** What an item is sorted and deduplicated by: `name` (tools, prompts), `uri` (resources), `uriTemplate` (templates). */
export function catalogKey<K extends CatalogKind>(kind: K, item: CatalogItemOf[K]): string {
  const field = kind === 'resources' ? 'uri' : kind === 'resourceTemplates' ? 'uriTemplate' : 'name';
  const value = (item as unknown as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : '';
}

/** Items sorted by their key in code-unit order (locale-independent), the first of duplicate keys kept. */
export function sortCatalogItems<K extends CatalogKind>(kind: K, items: readonly CatalogItemOf[K][]): { items: CatalogItemOf[K][]; duplicates: string[] } {
  const byKey = new Map<string, CatalogItemOf[K]>();
  const duplicates: string[] = [];
  for (const item of items) {
    const key = catalogKey(kind, item);
    if (byKey.has(key)) duplicates.push(key);
    else byKey.set(key, item);
  }
  const keys = [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { items: keys.map((key) => byKey.get(key)!), duplicates };
}

export interface ListAllOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  maxPages?: number;
}

/** The longest cache hint honoured (a day, as the SDK's): a server cannot pin a list for longer. */
export const MAX_CACHE_HINT_MS = 86_400_000;

/**
 * Every page of one kind, sorted; `warnings` say when paging was cut short or items repeated, `ttlMs` is
 * the server's cache hint (the shortest of its pages'; none when a page gave none). Rejects when a page
 * request fails.
 */
export async function listAll<K extends CatalogKind>(
  connection: Pick<ServerConnection, 'listPage'>,
  kind: K,
  options: ListAllOptions,
): Promise<{ items: CatalogItemOf[K][]; warnings: string[]; ttlMs?: number }> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const warnings: string[] = [];
  const collected: CatalogItemOf[K][] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let ttlMs: number | undefined;
  for (let page = 0; ; page++) {
    if (page >= maxPages) {
      warnings.push(`listing ${kind} stopped after ${maxPages} pages: the server keeps returning a next cursor`);
      break;
    }
    const result = await connection.listPage(kind, cursor, { timeoutMs: options.timeoutMs, signal: options.signal });
    collected.push(...result.items);
    const hint = result.ttlMs !== undefined && result.ttlMs > 0 ? result.ttlMs : 0;
    ttlMs = page === 0 ? hint : Math.min(ttlMs ?? 0, hint);
    const next = result.nextCursor;
    if (next == null || next === '') break;
    if (seen.has(next)) {
      warnings.push(`listing ${kind} stopped: the server repeated the cursor ${JSON.stringify(next)}`);
      break;
    }
    seen.add(next);
    cursor = next;
  }
  const { items, duplicates } = sortCatalogItems(kind, collected);
  if (duplicates.length > 0) {
    warnings.push(`the server listed ${kind} more than once, kept the first of each: ${[...new Set(duplicates)].join(', ')}`);
  }
  return ttlMs ? { items, warnings, ttlMs: Math.min(ttlMs, MAX_CACHE_HINT_MS) } : { items, warnings };
}

/** JSON-RPC's "Method not found". */
const METHOD_NOT_FOUND = -32601;

function isMethodNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === METHOD_NOT_FOUND;
}

export interface CatalogLoaderOptions {
  log: ServerLog;
  /** Read at each request, so a settings change applies to the next listing. */
  requestTimeoutMs: () => number;
  maxPages?: number;
  /** Called after a kind was loaded for the first time, and after a refresh that changed it. */
  onDidChange: (kind: CatalogKind) => void;
  /** With `minRefreshIntervalMs`: the wait between two listings of one kind in a storm of list_changed. */
  clock?: Clock;
  minRefreshIntervalMs?: number;
}

/** The wait between two listings of one kind while list_changed keeps coming. */
export const DEFAULT_MIN_REFRESH_INTERVAL_MS = 250;

interface KindState {
  scheduled: boolean;
  running: boolean;
  again: boolean;
  /** When its last listing ended (clock time), for the interval between listings. */
  lastEnded?: number;
  /** Lists the kind again when the server's cache hint for the last listing runs out. */
  expiry?: Disposable;
}

/** Lists and refreshes the catalog of one live connection. Owned by that connection's controller. */
export class CatalogLoader implements Disposable {
  private value: Catalog;
  private readonly abort = new AbortController();
  private readonly kinds = new Map<CatalogKind, KindState>();
  private readonly busy = new Set<Promise<void>>();
  private disposed = false;

  constructor(private readonly connection: ServerConnection, private readonly options: CatalogLoaderOptions) {
    this.value = { ...emptyCatalog(), instructions: connection.instructions, serverInfo: connection.serverInfo };
    if (connection.protocolVersion !== undefined) this.value.protocolVersion = connection.protocolVersion;
  }

  /** The catalog as last listed. */
  get current(): Catalog {
    return this.value;
  }

  /** Lists every kind the server supports, in parallel. Never rejects: a failed kind is logged and stays as it was. */
  load(): Promise<void> {
    const runs = CATALOG_KINDS.filter((kind) => this.connection.supports[kind]).map((kind) => this.track(this.run(kind, true)));
    return Promise.all(runs).then(() => undefined);
  }

  /** Re-lists one kind. A burst of calls is coalesced: one listing, plus one more if a call came while it ran. */
  refresh(kind: CatalogKind): void {
    if (this.disposed) return;
    if (!this.connection.supports[kind]) {
      this.options.log.warn(`ignoring a list_changed notification for ${kind}: the server did not declare ${kind}`);
      return;
    }
    const state = this.stateOf(kind);
    if (state.running) { state.again = true; return; }
    if (state.scheduled) return;
    state.scheduled = true;
    this.track(this.pause(this.waitBeforeNext(state)).then(() => this.run(kind, false)));
  }

  /** Resolves when no listing is running or scheduled. */
  async idle(): Promise<void> {
    while (this.busy.size > 0) await Promise.all([...this.busy]);
  }

  dispose(): void {
    this.disposed = true;
    for (const state of this.kinds.values()) state.expiry?.dispose();
    this.abort.abort(new Error('the connection ended'));
  }

  private async run(kind: CatalogKind, initial: boolean): Promise<void> {
    const state = this.stateOf(kind);
    state.scheduled = false;
    if (state.running) { state.again = true; return; }
    state.running = true;
    try {
      let force = initial;
      do {
        state.again = false;
        await this.fetch(kind, force);
        force = false;
        // Only refreshes count: a list_changed right after the first listing is answered at once.
        if (!initial) state.lastEnded = this.options.clock?.now();
        // A server may send list_changed as fast as it can: what comes meanwhile waits for one listing.
        if (state.again && !this.disposed) await this.pause(this.waitBeforeNext(state));
      } while (state.again && !this.disposed);
    } finally {
      state.running = false;
    }
  }

  private async fetch(kind: CatalogKind, forceEvent: boolean): Promise<void> {
    let listed: { items: CatalogItemOf[CatalogKind][]; warnings: string[]; ttlMs?: number };
    // A listing under way makes the last one's expiry moot; this one sets its own.
    this.stateOf(kind).expiry?.dispose();
    try {
      listed = await listAll(this.connection, kind, {
        timeoutMs: this.options.requestTimeoutMs(),
        signal: this.abort.signal,
        maxPages: this.options.maxPages,
      });
    } catch (error) {
      if (this.disposed) return;
      this.options.log.warn(`listing ${kind} failed; keeping the previous list: ${errorMessage(error)}`);
      // Kept in the catalog, so the views show a ready server with a warning rather than one with no tools.
      // Many servers declare `resources` without answering resources/templates/list: they have no
      // templates, which is nothing to warn about in every view.
      const none = kind === 'resourceTemplates' && isMethodNotFound(error);
      if ((!none && this.setFailed(kind, errorMessage(error))) || forceEvent) this.announce(kind);
      return;
    }
    if (this.disposed) return;
    this.expireAfter(kind, listed.ttlMs);
    const recovered = this.setFailed(kind, undefined);
    for (const warning of listed.warnings) this.options.log.warn(warning);
    // Before anything walks the items (even JSON.stringify below): a hostile listing is bounded first.
    const bounded = boundListing(kind, listed.items);
    for (const warning of bounded.warnings) this.options.log.warn(warning);
    const refused = kind === 'tools' && bounded.refused.length > 0 ? bounded.refused : undefined;
    const changed = recovered || JSON.stringify(this.value[kind]) !== JSON.stringify(bounded.items)
      || (kind === 'tools' && JSON.stringify(this.value.refusedTools) !== JSON.stringify(refused));
    if (changed) {
      const next: Catalog = { ...this.value, [kind]: bounded.items };
      if (kind === 'tools') {
        if (refused) next.refusedTools = refused;
        else delete next.refusedTools;
      }
      this.value = next;
    }
    if (!changed && !forceEvent) return;
    this.announce(kind);
  }

  /** Records (`error`) or clears (`undefined`) a failed listing of `kind`; true when that changed the catalog. */
  private setFailed(kind: CatalogKind, error: string | undefined): boolean {
    const before = this.value.failedListings ?? [];
    const others = before.filter((failed) => failed.kind !== kind);
    if (error === undefined ? others.length === before.length : before.some((failed) => failed.kind === kind && failed.error === error)) return false;
    const after = error === undefined ? others : [...others, { kind, error }].sort((a, b) => CATALOG_KINDS.indexOf(a.kind) - CATALOG_KINDS.indexOf(b.kind));
    const next: Catalog = { ...this.value, failedListings: after };
    if (after.length === 0) delete next.failedListings;
    this.value = next;
    return true;
  }

  private announce(kind: CatalogKind): void {
    try {
      this.options.onDidChange(kind);
    } catch (error) {
      this.options.log.error(`a catalog listener failed: ${errorMessage(error)}`);
    }
  }

  /** With a cache hint (and a clock), lists `kind` again once the hint runs out; the fresh list is not asked for before. */
  private expireAfter(kind: CatalogKind, ttlMs: number | undefined): void {
    const { clock } = this.options;
    if (clock === undefined || ttlMs === undefined || ttlMs <= 0) return;
    const state = this.stateOf(kind);
    state.expiry = clock.setTimeout(() => {
      state.expiry = undefined;
      this.refresh(kind);
    }, ttlMs);
  }

  /** How long a listing of this kind must still wait for the interval since the last one. */
  private waitBeforeNext(state: KindState): number {
    const { clock, minRefreshIntervalMs = 0 } = this.options;
    if (clock === undefined || state.lastEnded === undefined) return 0;
    return Math.max(0, state.lastEnded + minRefreshIntervalMs - clock.now());
  }

  /** Waits `ms` on the clock (a microtask when 0); ends at once when the loader is disposed. */
  private pause(ms: number): Promise<void> {
    const { clock } = this.options;
    if (clock === undefined || ms <= 0) return Promise.resolve();
    const signal = this.abort.signal;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        timer.dispose();
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = clock.setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private stateOf(kind: CatalogKind): KindState {
    let state = this.kinds.get(kind);
    if (!state) {
      state = { scheduled: false, running: false, again: false };
      this.kinds.set(kind, state);
    }
    return state;
  }

  private track(run: Promise<void>): Promise<void> {
    this.busy.add(run);
    void run.then(() => this.busy.delete(run));
    return run;
  }
}
