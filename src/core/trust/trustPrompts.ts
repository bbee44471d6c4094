// When and about what a person is asked to trust project servers. One prompt at a time: servers that
// need trust are gathered into one question; anything that comes up while a prompt is open (a new
// server, a changed definition, a Start on another server) is asked right after it closes. "Decide
// later" is kept for this session only and for that exact definition; "Don't trust" is remembered by
// the store. The prompt itself is a port: a modal dialog in VS Code, a script in tests.
//
// A definition the person is editing in an editor is never asked about in a modal (promptHold's
// `review`): a card asks (cards(), answerCard), and the definition stays with its card until decided,
// however long the pause. A change from outside waits, shown in the views, until its file is saved,
// parses and stays unchanged for a moment; right before the prompt the file is read again, and a file
// that changed meanwhile waits again, so the prompt shows what is on disk.
import type { EffectiveServer } from '../config/types';
import type { Disposable } from '../disposable';
import { Emitter, type Event } from '../event';
import { systemClock, type Clock } from '../lifecycle/clock';
import { FileChangeTimes, PROMPT_SETTLE_MS, promptHold, type PromptHold, type PromptHoldReason } from './promptHold';
import { buildTrustCard, buildTrustPrompt, type TrustCardText, type TrustPromptEntry } from './promptText';
import { needsTrustDecision } from './trustDecision';
import type { FileFacts, TrustAnswer, TrustCardAnswer, TrustPromptsOptions } from './trustPromptPorts';

export type { FileFacts, TrustAnswer, TrustCardAnswer, TrustPrompter, TrustPromptRequest, TrustPromptsOptions } from './trustPromptPorts';

type Waiter = (answer: TrustAnswer | undefined) => void;

export class TrustPrompts implements Disposable {
  /** Definitions put off in this session ("decide later", "review file"): not asked again unless a person starts them. */
  private readonly postponed = new Set<string>();
  /** Servers a person asked to start, with who waits for the answer. */
  private readonly requested = new Map<string, Waiter[]>();
  private wanted = false;
  private running: Promise<void> | undefined;
  private disposed = false;
  private readonly clock: Clock;
  private readonly changes: FileChangeTimes;
  /** Definitions a card asks about (they were being edited): never put in a modal unless a person asks. */
  private readonly carded = new Set<string>();
  /** The entries of the servers a card asks about now, by id. */
  private cardEntries = new Map<string, TrustPromptEntry>();
  /** Servers (by id) that need trust but whose file is held, with why. */
  private held = new Map<string, PromptHoldReason>();
  private readonly heldChanged = new Emitter<void>();
  /** Fires when the set of held servers (or why they wait) changed. */
  readonly onDidChangeWaiting: Event<void> = this.heldChanged.event;
  private retry: Disposable | undefined;
  private retryAt: number | undefined;

  constructor(private readonly options: TrustPromptsOptions) {
    this.clock = options.clock ?? systemClock;
    this.changes = new FileChangeTimes(this.clock);
  }

  /** Why the server is not asked about yet (its file is being edited), or undefined. */
  waiting(serverId: string): PromptHoldReason | undefined {
    return this.held.get(serverId);
  }

  /**
   * Resolves once no prompt is open or due and no server waits for its file to settle: the moment
   * right after the trust prompt (if one was due), for a question that belongs to it. A card waits for
   * the person, not for a file: it does not hold this back.
   */
  async settled(): Promise<void> {
    for (;;) {
      await this.check();
      if (this.disposed || [...this.held.values()].every((reason) => reason === 'review')) return;
      await new Promise<void>((resolve) => {
        const subscription = this.heldChanged.event(() => { subscription.dispose(); resolve(); });
      });
    }
  }

  /** The cards asking about definitions the person is editing, in the configuration's order. */
  cards(): TrustCardText[] {
    return [...this.cardEntries.values()].map((entry) => buildTrustCard(entry, this.blockedReason(entry.server.source.file)));
  }

  /**
   * The person's answer on a card: trusts (or refuses) the definition the card showed, and only that:
   * it throws, changing nothing, when the server has no card, its definition is no longer the one shown
   * (`fingerprint`), or Trust meets a file whose disk text is not what the card showed.
   */
  async answerCard(serverId: string, fingerprint: string, answer: TrustCardAnswer): Promise<void> {
    const entry = this.cardEntries.get(serverId);
    if (entry === undefined) throw new Error(`no card asks about "${serverId}" now`);
    const { server } = entry;
    if (server.fingerprint !== fingerprint) throw new Error(`the definition of "${serverId}" changed since the card showed it: read it again`);
    if (answer === 'trust') {
      const blocked = this.blockedReason(server.source.file);
      if (blocked !== undefined) throw new Error(`"${serverId}" cannot be trusted yet: ${blocked}`);
      if ((await this.changedOnDisk([entry])).length > 0) {
        this.changes.touch(server.source.file);
        void this.check();
        throw new Error(`the file of "${serverId}" changed since the card showed it: read it again`);
      }
      await this.options.store.trust(server);
    } else {
      await this.options.store.refuse(server);
    }
    this.carded.delete(definitionKey(server));
    void this.check();
  }

  /** Records that a config file changed now (an edit, a save, a change on disk) and looks again once it settled. */
  touch(file: string): void {
    this.changes.touch(file);
    void this.check();
  }

  /** Asks about every project server that needs trust and was not put off in this session; resolves when no prompt is left. */
  check(): Promise<void> {
    this.wanted = true;
    return this.run();
  }

  /**
   * Asks about these servers now (after any open prompt), even when they were put off or refused
   * before. Resolves with the answer that covered them, or undefined when none of them needed asking.
   */
  ask(ids: readonly string[]): Promise<TrustAnswer | undefined> {
    if (this.disposed || ids.length === 0) return Promise.resolve(undefined);
    const answered = new Promise<TrustAnswer | undefined>((resolve) => {
      let left = ids.length;
      let result: TrustAnswer | undefined;
      for (const id of ids) {
        const waiters = this.requested.get(id) ?? [];
        waiters.push((answer) => {
          result ??= answer;
          if (--left === 0) resolve(result);
        });
        this.requested.set(id, waiters);
      }
    });
    void this.run();
    return answered;
  }

  /** Treats these definitions as put off for this session (e.g. right after a person revoked their trust). */
  postpone(servers: readonly EffectiveServer[]): void {
    for (const server of servers) this.postponed.add(definitionKey(server));
  }

  dispose(): void {
    this.disposed = true;
    this.retry?.dispose();
    this.settle([...this.requested.keys()], undefined, []);
    this.heldChanged.dispose();
  }

  private run(): Promise<void> {
    // Started on the next tick, so `running` is set before the loop can end.
    this.running ??= Promise.resolve().then(() => this.loop());
    return this.running;
  }

  private async loop(): Promise<void> {
    for (;;) {
      // The last check and the end of the loop happen in one step: a request made after it starts a new loop.
      if (this.disposed || (!this.wanted && this.requested.size === 0)) {
        this.running = undefined;
        return;
      }
      this.wanted = false;
      try {
        await this.options.ready?.();
      } catch (error) {
        this.options.onProblem(`trust: ${errorMessage(error)}`);
      }
      const requested = [...this.requested.keys()];
      let entries: TrustPromptEntry[];
      try {
        entries = this.pending(new Set(requested));
      } catch (error) {
        this.options.onProblem(`could not tell which servers need trust: ${errorMessage(error)}`);
        entries = [];
      }
      if (entries.length === 0) {
        this.settle(requested, undefined, entries);
        continue;
      }
      // Read again right before asking: a file that changed since the configuration read it waits again.
      const moved = await this.changedOnDisk(entries);
      if (moved.length > 0) {
        for (const file of moved) this.changes.touch(file);
        this.holdEntries(entries.filter((entry) => moved.includes(entry.server.source.file)), 'settling');
        this.scheduleRetry(this.clock.now() + this.settleMs);
        // Those who asked keep waiting: the retry asks them once the file settled.
        this.running = undefined;
        return;
      }
      let answer: TrustAnswer;
      try {
        answer = await this.options.prompter().ask({ entries, text: buildTrustPrompt(entries) });
      } catch (error) {
        this.options.onProblem(`the trust prompt could not be shown (${errorMessage(error)}); the servers wait for trust`);
        answer = 'later';
      }
      try {
        await this.apply(answer, entries);
      } catch (error) {
        this.options.onProblem(`could not remember the trust decision: ${errorMessage(error)}`);
      }
      // Starts asked for while the prompt was open are answered by it too, when it covered their server.
      const covered = new Set(entries.map((entry) => entry.server.id));
      this.settle([...new Set([...requested, ...[...this.requested.keys()].filter((id) => covered.has(id))])], answer, entries);
    }
  }

  private get settleMs(): number {
    return this.options.settleMs ?? PROMPT_SETTLE_MS;
  }

  /**
   * The project servers to ask about: those that need trust and were not put off, plus the requested
   * ones (even refused). A server a person asked for is asked about at once; the others wait while
   * their file is held (and are remembered as held for the views).
   */
  private pending(requested: ReadonlySet<string>): TrustPromptEntry[] {
    const { servers, shadowed } = this.options.config();
    const entries: TrustPromptEntry[] = [];
    const held = new Map<string, PromptHoldReason>();
    const cards = new Map<string, TrustPromptEntry>();
    const holds = new Map<string, PromptHold>();
    let retryAt: number | undefined;
    // Cards of definitions that are gone (typed over, removed) are forgotten.
    const current = new Set(servers.map(definitionKey));
    for (const key of this.carded) if (!current.has(key)) this.carded.delete(key);
    for (const server of servers) {
      if (!needsTrustDecision(server)) continue;
      const decision = this.options.gate.decide(server);
      const asked = requested.has(server.id);
      const key = definitionKey(server);
      const due = decision.state === 'needsTrust' ? asked || !this.postponed.has(key) : decision.state === 'refused' && asked;
      if (!due) continue;
      const entry = (): TrustPromptEntry => ({
        server,
        decision,
        flags: this.options.gate.flags(server),
        shadows: shadowed.filter((candidate) => candidate.shadowedBy.id === server.id),
      });
      if (!asked) {
        const file = server.source.file;
        let hold = holds.get(file);
        if (hold === undefined) {
          hold = promptHold({ ...this.facts(file), lastChangeAt: this.changes.lastChangeAt(file) }, this.clock.now(), this.settleMs);
          holds.set(file, hold);
        }
        // Once a card asks about a definition it keeps asking: a pause in typing never turns it into a modal.
        if (hold.kind === 'wait' && hold.reason === 'review') this.carded.add(key);
        if (this.carded.has(key)) {
          held.set(server.id, 'review');
          cards.set(server.id, entry());
          continue;
        }
        if (hold.kind === 'wait') {
          held.set(server.id, hold.reason);
          if (hold.retryAt !== undefined) retryAt = Math.min(retryAt ?? hold.retryAt, hold.retryAt);
          continue;
        }
      }
      entries.push(entry());
    }
    this.setHeld(held, cards);
    if (retryAt !== undefined) this.scheduleRetry(retryAt);
    return entries;
  }

  private facts(file: string): FileFacts {
    return this.options.files?.facts(file) ?? { dirty: false, usable: true };
  }

  /** Why a card cannot trust what it shows now: the disk text is not what the editor shows, or not valid. */
  private blockedReason(file: string): string | undefined {
    const { dirty, usable } = this.facts(file);
    if (dirty) return 'the file has unsaved changes: save it, and the card shows what you saved';
    if (!usable) return 'the file does not parse: the card shows its last valid definition';
    return undefined;
  }

  /** The files of these entries that changed on disk since the configuration read them. */
  private async changedOnDisk(entries: readonly TrustPromptEntry[]): Promise<readonly string[]> {
    if (this.options.files === undefined) return [];
    const files = [...new Set(entries.map((entry) => entry.server.source.file))];
    try {
      return await this.options.files.changedOnDisk(files);
    } catch (error) {
      // Unreadable now: the configuration's next read reports it; asking about the old text would be wrong.
      this.options.onProblem(`could not read the config files again before the trust prompt (${errorMessage(error)}); asking once they settle`);
      return files;
    }
  }

  private holdEntries(entries: readonly TrustPromptEntry[], reason: PromptHoldReason): void {
    const held = new Map(this.held);
    for (const { server } of entries) held.set(server.id, reason);
    this.setHeld(held);
  }

  private setHeld(held: Map<string, PromptHoldReason>, cards: Map<string, TrustPromptEntry> = this.cardEntries): void {
    const same = held.size === this.held.size && [...held].every(([id, reason]) => this.held.get(id) === reason);
    // A card shows a definition and whether it can be trusted now: either changing is a change to show.
    const before = this.cardsKey();
    this.held = held;
    this.cardEntries = cards;
    if (!same || this.cardsKey() !== before) this.heldChanged.fire();
  }

  private cardsKey(): string {
    return [...this.cardEntries.values()].map((entry) => `${entry.server.id}\0${entry.server.fingerprint}\0${this.blockedReason(entry.server.source.file) ?? ''}`).join('\n');
  }

  /** Looks again at `at` (the earliest moment a held file settles); an earlier retry already set stays. */
  private scheduleRetry(at: number): void {
    if (this.disposed) return;
    if (this.retry !== undefined && this.retryAt !== undefined && this.retryAt <= at) return;
    this.retry?.dispose();
    this.retryAt = at;
    this.retry = this.clock.setTimeout(() => {
      this.retry = undefined;
      this.retryAt = undefined;
      void this.check();
    }, Math.max(0, at - this.clock.now()));
  }

  private async apply(answer: TrustAnswer, entries: readonly TrustPromptEntry[]): Promise<void> {
    switch (answer) {
      case 'trust':
        for (const { server } of entries) await this.options.store.trust(server);
        return;
      case 'refuse':
        for (const { server } of entries) await this.options.store.refuse(server);
        return;
      case 'review':
        // Read in the editor, then decided on the card: the modal does not come back for them by itself.
        for (const { server } of entries) this.carded.add(definitionKey(server));
        await this.options.review(entries);
        return;
      case 'later':
        this.postpone(entries.map((entry) => entry.server));
        return;
    }
  }

  /** Answers whoever waited for these ids: the answer if the prompt covered their server, else undefined. */
  private settle(ids: readonly string[], answer: TrustAnswer | undefined, entries: readonly TrustPromptEntry[]): void {
    for (const id of ids) {
      const waiters = this.requested.get(id) ?? [];
      this.requested.delete(id);
      const covered = entries.some((entry) => entry.server.id === id);
      for (const waiter of waiters) waiter(covered ? answer : undefined);
    }
  }
}

/** A definition of a server in a folder: what "decide later" is remembered for. */
function definitionKey(server: EffectiveServer): string {
  return `${server.folder ?? ''}\0${server.name}\0${server.fingerprint}`;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
