// When and about what a person is asked to trust project servers. One prompt at a time: servers that
// need trust are gathered into one question; anything that comes up while a prompt is open (a new
// server, a changed definition, a Start on another server) is asked right after it closes. "Decide
// later" is kept for this session only and for that exact definition; "Don't trust" is remembered by
// the store. The prompt itself is a port: a modal dialog in VS Code, a script in tests.
import type { EffectiveServer, ShadowedServer } from '../config/types';
import type { Disposable } from '../disposable';
import type { DangerFlag } from './dangerFlags';
import { buildTrustPrompt, type TrustPromptEntry, type TrustPromptText } from './promptText';
import { needsTrustDecision, type TrustDecision } from './trustDecision';

/** A person's answer: trust and start, look at the file first, don't trust, or decide later (closed). */
export type TrustAnswer = 'trust' | 'review' | 'refuse' | 'later';

/** What a prompt shows. */
export interface TrustPromptRequest {
  readonly entries: readonly TrustPromptEntry[];
  readonly text: TrustPromptText;
}

/** Shows one prompt and collects the answer. A rejection counts as "decide later". */
export interface TrustPrompter {
  ask(request: TrustPromptRequest): Promise<TrustAnswer>;
}

export interface TrustPromptsOptions {
  /** The effective servers and the entries they shadow, as the configuration has them now. */
  config(): { readonly servers: readonly EffectiveServer[]; readonly shadowed: readonly ShadowedServer[] };
  gate: {
    decide(server: EffectiveServer): TrustDecision;
    flags(server: EffectiveServer): readonly DangerFlag[];
  };
  store: {
    trust(server: EffectiveServer): Promise<void>;
    refuse(server: EffectiveServer): Promise<void>;
  };
  /** The prompter to use for the next prompt (tests may swap it). */
  prompter(): TrustPrompter;
  /** Opens the definitions of the entries ("Review file"). */
  review(entries: readonly TrustPromptEntry[]): Promise<void>;
  /** Resolves once what the gate reads is current (e.g. the verified folders); awaited before each prompt. */
  ready?(): Promise<void>;
  /** Told when a prompt could not be shown or an answer could not be stored. */
  onProblem(message: string): void;
}

type Waiter = (answer: TrustAnswer | undefined) => void;

export class TrustPrompts implements Disposable {
  /** Definitions put off in this session ("decide later", "review file"): not asked again unless a person starts them. */
  private readonly postponed = new Set<string>();
  /** Servers a person asked to start, with who waits for the answer. */
  private readonly requested = new Map<string, Waiter[]>();
  private wanted = false;
  private running: Promise<void> | undefined;
  private disposed = false;

  constructor(private readonly options: TrustPromptsOptions) {}

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
    this.settle([...this.requested.keys()], undefined, []);
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

  /** The project servers to ask about: those that need trust and were not put off, plus the requested ones (even refused). */
  private pending(requested: ReadonlySet<string>): TrustPromptEntry[] {
    const { servers, shadowed } = this.options.config();
    const entries: TrustPromptEntry[] = [];
    for (const server of servers) {
      if (!needsTrustDecision(server)) continue;
      const decision = this.options.gate.decide(server);
      const asked = requested.has(server.id);
      const due = decision.state === 'needsTrust' ? asked || !this.postponed.has(definitionKey(server)) : decision.state === 'refused' && asked;
      if (!due) continue;
      entries.push({
        server,
        decision,
        flags: this.options.gate.flags(server),
        shadows: shadowed.filter((entry) => entry.shadowedBy.id === server.id),
      });
    }
    return entries;
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
        this.postpone(entries.map((entry) => entry.server));
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
