// Tells the user when a server has failed for good: a line in the main log and an error notification
// with a "Show Logs" button. Only the final `failed` counts (a crash is retried first, and a restart
// loop ends in one `failed`); the same failure of the same server is not announced twice in a row;
// failures during the initial startup are gathered into one notification.
import * as vscode from 'vscode';
import type { Event as CoreEvent } from '../../core/event';
import { failureSummary, type ServerStateChange } from '../../core/lifecycle';
import { shortReason } from '../tree/stateIcons';
import { notifyError } from '../ui/notify';

const SHOW_LOGS = 'Show Logs';

/** The same server failing with the same reason within this window is announced once. */
const REPEAT_WINDOW_MS = 60_000;

export interface FailureNotifierOptions {
  onDidChangeState: CoreEvent<ServerStateChange>;
  log: Pick<vscode.LogOutputChannel, 'warn'>;
  /** Shows the logs of these servers (their channel, or a pick among them). */
  showLogs(ids: readonly string[]): void;
  /** Shows the notification; resolves to the button chosen. Default: an error notification. */
  notify?: (message: string, button: string) => Thenable<string | undefined>;
  now?: () => number;
}

interface Failure {
  id: string;
  error: string;
  /** The error with the stderr line stating its cause and the hint, for a notification about this server alone. */
  detail: string;
}

export class FailureNotifier implements vscode.Disposable {
  private readonly subscription: { dispose(): void };
  private readonly lastAnnounced = new Map<string, { error: string; at: number }>();
  /** Failures gathered while held (during the initial startup). */
  private held: Failure[] | undefined;
  private readonly now: () => number;

  constructor(private readonly options: FailureNotifierOptions) {
    this.now = options.now ?? Date.now;
    this.subscription = options.onDidChangeState(({ id, state }) => {
      if (state.kind === 'ready') this.lastAnnounced.delete(id);
      if (state.kind === 'failed') this.failed({ id, error: state.error, detail: failureSummary(state.error, state.stderrTail, state.hint) });
    });
  }

  /** Gathers failures until the returned function is called, then announces them in one notification. */
  hold(): () => void {
    this.held ??= [];
    return () => {
      const failures = this.held ?? [];
      this.held = undefined;
      if (failures.length === 1) this.notify(failures[0]);
      else if (failures.length > 1) this.notifyMany(failures);
    };
  }

  dispose(): void {
    this.subscription.dispose();
    this.held = undefined;
  }

  private failed(failure: Failure): void {
    this.options.log.warn(`server ${failure.id} failed: ${failure.error}`);
    const last = this.lastAnnounced.get(failure.id);
    const at = this.now();
    if (last && last.error === failure.error && at - last.at < REPEAT_WINDOW_MS) return;
    this.lastAnnounced.set(failure.id, { error: failure.error, at });
    if (this.held) {
      this.held = [...this.held.filter((f) => f.id !== failure.id), failure];
      return;
    }
    this.notify(failure);
  }

  private notify({ id, detail }: Failure): void {
    this.ask(`MCP server "${id}" failed: ${shortReason(detail, 500)}`, [id]);
  }

  private notifyMany(failures: Failure[]): void {
    const list = failures.map(({ id, error }) => `"${id}" (${shortReason(error, 80)})`).join(', ');
    this.ask(`${failures.length} MCP servers failed to start: ${list}`, failures.map((f) => f.id));
  }

  private ask(message: string, ids: string[]): void {
    const notify = this.options.notify ?? ((text, button) => notifyError(text, button));
    void notify(message, SHOW_LOGS).then((choice) => {
      if (choice === SHOW_LOGS) this.options.showLogs(ids);
    });
  }
}
