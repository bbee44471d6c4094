/** Something that holds a resource until disposed. Structurally compatible with vscode.Disposable. */
export interface Disposable {
  dispose(): void;
}

/** Owns disposables and disposes them together, newest first. */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  /** Adds a disposable; if the store is already disposed it is disposed at once. */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    this.disposed = true;
    const items = this.items.reverse();
    this.items = [];
    for (const item of items) item.dispose();
  }
}

/** Wraps a function as a disposable. */
export function toDisposable(fn: () => void): Disposable {
  let done = false;
  const disposable: Disposable = {
    dispose: () => {
      if (done) return;
      done = true;
      tracker?.disposed(disposable);
      fn();
    },
  };
  disposableTracker()?.created(disposable);
  return disposable;
}

/**
 * Told of every disposable toDisposable and Emitter subscriptions create, and of its disposal. Only the
 * extension's test hooks install one (to find what a test suite left undisposed); otherwise it is unset
 * and costs one check.
 */
export interface DisposableTracker {
  created(disposable: Disposable): void;
  disposed(disposable: Disposable): void;
}

let tracker: DisposableTracker | undefined;

export function setDisposableTracker(next: DisposableTracker | undefined): void {
  tracker = next;
}

/** The tracker, for the core's own disposables (Emitter subscriptions); none while a singleton is built. */
export function disposableTracker(): DisposableTracker | undefined {
  return singletonDepth === 0 ? tracker : undefined;
}

let singletonDepth = 0;

/**
 * Builds something that lives as long as the extension although it is made on first use (a lazily
 * loaded feature's wiring): what it subscribes to while being built is not tracked, since it is disposed
 * with the extension and not by whoever used it first (VS Code's markAsSingleton, for a whole build).
 */
export function buildSingleton<T>(build: () => T): T {
  singletonDepth++;
  try {
    return build();
  } finally {
    singletonDepth--;
  }
}
