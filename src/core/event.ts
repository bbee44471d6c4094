import { disposableTracker, type Disposable } from './disposable';

/** A subscribe function, shaped like vscode.Event so adapters can pass it straight through. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/** A minimal event emitter for the core (which cannot use vscode.EventEmitter). */
export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();
  /** Live subscriptions, only while a tracker watches (so that disposing the emitter ends them for it too). */
  private tracked: Set<Disposable> | undefined;

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    const tracker = disposableTracker();
    if (!tracker) return { dispose: () => { this.listeners.delete(listener); } };
    const subscription: Disposable = {
      dispose: () => {
        this.listeners.delete(listener);
        if (this.tracked?.delete(subscription)) tracker.disposed(subscription);
      },
    };
    (this.tracked ??= new Set()).add(subscription);
    tracker.created(subscription);
    return subscription;
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
    const tracker = disposableTracker();
    for (const subscription of this.tracked ?? []) tracker?.disposed(subscription);
    this.tracked = undefined;
  }
}
