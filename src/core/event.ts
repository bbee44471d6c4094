import type { Disposable } from './disposable';

/** A subscribe function, shaped like vscode.Event so adapters can pass it straight through. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/** A minimal event emitter for the core (which cannot use vscode.EventEmitter). */
export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
