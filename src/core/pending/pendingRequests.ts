// Requests that wait for a person: a tool call to approve, a form a server asks to be filled, a model
// completion to allow. Each waits, in the order it came, until the person answers it or its caller goes
// away (an aborted signal, or the whole list disposed with the window). The list knows nothing of the
// sidebar: it keeps what waits, fires events, and hands out answers.
import type { Disposable } from '../disposable';
import { Emitter, type Event } from '../event';

interface Waiting<R, A> {
  readonly request: R;
  readonly settle: (answer: A) => void;
  readonly cancel: (error: Error) => void;
}

/** Why a request stopped waiting without an answer. */
export type CancelReason = 'aborted' | 'disposed';

export class PendingRequests<R extends { readonly id: string }, A> implements Disposable {
  private readonly waiting = new Map<string, Waiting<R, A>>();
  private readonly changed = new Emitter<void>();
  private readonly added = new Emitter<R>();

  /** Fires when a request is added or removed. */
  readonly onDidChange: Event<void> = this.changed.event;
  /** Fires with each new request (to reveal the sidebar or notify). */
  readonly onDidAdd: Event<R> = this.added.event;

  /** @param cancelled the error a request rejects with when its caller or the window goes away. */
  constructor(private readonly cancelled: (reason: CancelReason) => Error) {}

  /** What waits for an answer, oldest first. */
  pending(): R[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  get(id: string): R | undefined {
    return this.waiting.get(id)?.request;
  }

  /** Adds a request and resolves with the person's answer; rejects when `signal` aborts (the request is removed) or the list is disposed. */
  ask(request: R, signal?: AbortSignal): Promise<A> {
    if (this.waiting.has(request.id)) return Promise.reject(new Error(`a request with the id ${request.id} is already pending`));
    if (signal?.aborted) return Promise.reject(this.cancelled('aborted'));
    return new Promise<A>((resolve, reject) => {
      const onAbort = (): void => { this.remove(request.id, (w) => w.cancel(this.cancelled('aborted'))); };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      this.waiting.set(request.id, {
        request,
        settle: (answer) => { done(); resolve(answer); },
        cancel: (error) => { done(); reject(error); },
      });
      this.changed.fire();
      this.added.fire(request);
    });
  }

  /** Settles a request with the person's answer; false when none with that id waits (answered or cancelled already). */
  answer(id: string, answer: A): boolean {
    return this.remove(id, (w) => w.settle(answer));
  }

  dispose(): void {
    for (const id of [...this.waiting.keys()]) this.remove(id, (w) => w.cancel(this.cancelled('disposed')));
    this.changed.dispose();
    this.added.dispose();
  }

  private remove(id: string, then: (waiting: Waiting<R, A>) => void): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    this.waiting.delete(id);
    then(waiting);
    this.changed.fire();
    return true;
  }
}
