// Where a call that must be asked about waits for the person: each pending approval is a card the
// sidebar shows; the person's answer (or the caller's cancellation) settles it. The broker knows
// nothing of the sidebar: it keeps the pending cards, fires a change event, and hands out answers.
import type { Disposable } from '../disposable';
import { Emitter, type Event } from '../event';
import type { ToolAnnotations } from '../lifecycle/types';
import type { FilePreview } from './preview/types';
import type { RuleScope } from './rules';

/** What a card shows about one call. */
export interface ApprovalRequest {
  readonly id: string;
  /** The server's id (what requests refer to) and name (what rules use). */
  readonly serverId: string;
  readonly serverName: string;
  readonly tool: string;
  /** The name the model knows the tool by, e.g. `mcp__fs__write_file`. */
  readonly qualifiedName: string;
  readonly annotations?: ToolAnnotations;
  /** Why the policy asks, in one sentence. */
  readonly reason: string;
  /** The call's arguments as the caller sent them. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The tool's input schema, for validating edited arguments. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** Set for shell-like tools: the command's signatures ("Always allow" is about those). */
  readonly signatures?: readonly string[];
  /** Set for a call that writes files: what it would change (or why the server would refuse it). */
  readonly preview?: FilePreview;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** Who is calling: `chat`, `lm-tool`, `command`, `api`. */
  readonly caller: string;
}

/** The person's answer to a card. */
export type ApprovalAnswer =
  /** Run the call with these (possibly edited) arguments; `remember` keeps an allow rule. */
  | { readonly kind: 'approve'; readonly args: Readonly<Record<string, unknown>>; readonly remember?: RuleScope }
  /** Do not run it; `reason` is returned to the caller as the tool's error text. */
  | { readonly kind: 'reject'; readonly reason?: string };

/** The caller went away (cancelled, or the broker was disposed) before the person answered. */
export class ApprovalCancelledError extends Error {
  constructor(message = 'the call was cancelled before it was approved') {
    super(message);
    this.name = 'ApprovalCancelledError';
  }
}

interface Pending {
  readonly request: ApprovalRequest;
  readonly settle: (answer: ApprovalAnswer) => void;
  readonly cancel: (error: Error) => void;
}

/** The pending approvals, in the order they were asked. */
export class ApprovalBroker implements Disposable {
  private readonly waiting = new Map<string, Pending>();
  private readonly changed = new Emitter<void>();
  private readonly asked = new Emitter<ApprovalRequest>();

  /** Fires when a card is added or removed. */
  readonly onDidChange: Event<void> = this.changed.event;
  /** Fires with each new card (to reveal the sidebar or notify). */
  readonly onDidAsk: Event<ApprovalRequest> = this.asked.event;

  /** The cards waiting for an answer, oldest first. */
  pending(): ApprovalRequest[] {
    return [...this.waiting.values()].map((p) => p.request);
  }

  get(id: string): ApprovalRequest | undefined {
    return this.waiting.get(id)?.request;
  }

  /**
   * Shows a card and resolves with the person's answer. Rejects with ApprovalCancelledError when
   * `signal` aborts (the card is removed) or the broker is disposed.
   */
  ask(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer> {
    if (this.waiting.has(request.id)) return Promise.reject(new Error(`an approval with the id ${request.id} is already pending`));
    if (signal?.aborted) return Promise.reject(new ApprovalCancelledError());
    return new Promise<ApprovalAnswer>((resolve, reject) => {
      const onAbort = (): void => { this.remove(request.id, (p) => p.cancel(new ApprovalCancelledError())); };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      this.waiting.set(request.id, {
        request,
        settle: (answer) => { done(); resolve(answer); },
        cancel: (error) => { done(); reject(error); },
      });
      this.changed.fire();
      this.asked.fire(request);
    });
  }

  /** Settles a card with the person's answer; false when no such card waits (already answered or cancelled). */
  answer(id: string, answer: ApprovalAnswer): boolean {
    return this.remove(id, (p) => p.settle(answer));
  }

  dispose(): void {
    for (const id of [...this.waiting.keys()]) this.remove(id, (p) => p.cancel(new ApprovalCancelledError('the window closed before the call was approved')));
    this.changed.dispose();
    this.asked.dispose();
  }

  private remove(id: string, then: (pending: Pending) => void): boolean {
    const pending = this.waiting.get(id);
    if (!pending) return false;
    this.waiting.delete(id);
    then(pending);
    this.changed.fire();
    return true;
  }
}
