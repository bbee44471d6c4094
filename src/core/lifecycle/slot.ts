// "The current X" held by an owner: replacing the value disposes the old one.
import type { Disposable } from '../disposable';

/** A mutable slot that owns its value: setting a new value (or clearing) disposes the previous one. */
export class MutableSlot<T extends Disposable> implements Disposable {
  private current: T | undefined;

  get value(): T | undefined {
    return this.current;
  }

  set value(next: T | undefined) {
    if (next === this.current) return;
    const previous = this.current;
    this.current = next;
    previous?.dispose();
  }

  /** Empties the slot and hands the value to the caller, who now owns it (nothing is disposed). */
  take(): T | undefined {
    const value = this.current;
    this.current = undefined;
    return value;
  }

  /** Empties the slot, disposing the value. */
  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    this.clear();
  }
}
