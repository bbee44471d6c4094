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
  return { dispose: () => { if (!done) { done = true; fn(); } } };
}
