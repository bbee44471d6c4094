// The call history of this workspace: the last 500 calls, kept in the workspace state (outside the
// repository) and restored at the next start. Writes are batched: a burst of calls is one write.
import * as vscode from 'vscode';
import { counted } from '../../protocol/counts';
import { CallHistory, type CallRecord, type HistoryFilter } from '../../core/approvals';

export const CALL_HISTORY_KEY = 'switchboard.callHistory';
const WRITE_DELAY_MS = 500;

export class CallHistoryStore implements vscode.Disposable {
  private readonly history = new CallHistory();
  private readonly changed = new vscode.EventEmitter<void>();
  private writeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Fires when a call is recorded or the history is cleared. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento, warn: (message: string) => void) {
    const skipped = this.history.restore(state.get<unknown>(CALL_HISTORY_KEY, []));
    if (skipped > 0) warn(`call history: ${counted(skipped, 'stored record')} could not be read and ${skipped === 1 ? 'was' : 'were'} dropped`);
  }

  record(entry: CallRecord): void {
    this.history.record(entry);
    this.changed.fire();
    this.scheduleWrite();
  }

  list(filter?: HistoryFilter): CallRecord[] {
    return this.history.list(filter);
  }

  /** Every kept call as plain JSON, newest first (what Export History saves). */
  toJSON(): CallRecord[] {
    return this.history.toJSON();
  }

  async clear(): Promise<void> {
    this.history.clear();
    this.changed.fire();
    await this.flush();
  }

  /** Writes what is pending now. */
  async flush(): Promise<void> {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    await this.state.update(CALL_HISTORY_KEY, this.history.toJSON());
  }

  dispose(): void {
    if (this.writeTimer !== undefined) void this.flush();
    this.changed.dispose();
  }

  private scheduleWrite(): void {
    if (this.writeTimer !== undefined) return;
    this.writeTimer = setTimeout(() => { void this.flush(); }, WRITE_DELAY_MS);
  }
}
