// A server decides how much it logs: stderr lines, log notifications, the protocol trace, and the
// warnings its misbehaviour causes (a progress notification for no request, list_changed for a list
// it never declared). Each line is cheap, but a server that sends them as fast as the pipe goes grows
// every sink without bound (an output channel keeps its text). The budget lets a fixed amount per
// second through, counts the rest and says so in the log once per second while it drops.
import type { Disposable } from '../disposable';
import { formatDuration, type Clock } from './clock';
import type { ServerLog } from './ports';
import type { McpLogLevel } from './types';

/** How much of a server's own output reaches its log per second. */
export interface LogBudgetLimits {
  /** stderr lines, log notifications and trace messages together. */
  linesPerSecond: number;
  /** The characters of those lines together. */
  charsPerSecond: number;
  /** Warnings (the host's, about what the server sent). */
  warningsPerSecond: number;
}

export const DEFAULT_LOG_BUDGET: LogBudgetLimits = { linesPerSecond: 200, charsPerSecond: 256 * 1024, warningsPerSecond: 50 };

const WINDOW_MS = 1000;
/** How much of a structured log message is measured (anything larger counts as this much). */
const MEASURE_CAP = 1024 * 1024;

/** A ServerLog in front of `inner` that drops past the budget and counts what it dropped. info and error always pass. */
export class BudgetedLog implements ServerLog, Disposable {
  private windowStart = Number.NEGATIVE_INFINITY;
  private lines = 0;
  private chars = 0;
  private warnings = 0;
  /** Dropped since the last report, and since when. */
  private unreported = 0;
  private unreportedSince = 0;
  private total = 0;
  private reportTimer: Disposable | undefined;

  constructor(private readonly inner: ServerLog, private readonly clock: Clock, private readonly limits: LogBudgetLimits = DEFAULT_LOG_BUDGET) {}

  /** Lines dropped since this log was made. */
  get dropped(): number {
    return this.total;
  }

  info(message: string): void { this.inner.info(message); }
  error(message: string): void { this.inner.error(message); }

  warn(message: string): void {
    this.roll();
    if (this.warnings >= this.limits.warningsPerSecond) { this.drop(); return; }
    this.warnings++;
    this.inner.warn(message);
  }

  stderr(line: string): void {
    if (this.admit(line.length)) this.inner.stderr(line);
  }

  serverMessage(level: McpLogLevel, logger: string | undefined, data: unknown): void {
    if (this.admit((logger?.length ?? 0) + sizeOf(data))) this.inner.serverMessage(level, logger, data);
  }

  trace(direction: 'send' | 'receive', message: unknown): void {
    if (this.admit(sizeOf(message))) this.inner.trace(direction, message);
  }

  /** Says what is still unreported, and stops the timer. */
  dispose(): void {
    this.report();
    this.reportTimer?.dispose();
    this.reportTimer = undefined;
  }

  private admit(chars: number): boolean {
    this.roll();
    if (this.lines >= this.limits.linesPerSecond || (this.chars + chars > this.limits.charsPerSecond && this.lines > 0)) {
      this.drop();
      return false;
    }
    this.lines++;
    this.chars += chars;
    return true;
  }

  private roll(): void {
    const now = this.clock.now();
    if (now - this.windowStart < WINDOW_MS) return;
    this.windowStart = now;
    this.lines = 0;
    this.chars = 0;
    this.warnings = 0;
  }

  private drop(): void {
    if (this.unreported === 0) this.unreportedSince = this.clock.now();
    this.unreported++;
    this.total++;
    this.reportTimer ??= this.clock.setTimeout(() => {
      this.reportTimer = undefined;
      this.report();
    }, WINDOW_MS);
  }

  private report(): void {
    if (this.unreported === 0) return;
    const count = this.unreported;
    const span = Math.max(this.clock.now() - this.unreportedSince, 1);
    this.unreported = 0;
    const { linesPerSecond, charsPerSecond } = this.limits;
    this.inner.warn(`dropped ${count} log ${count === 1 ? 'line' : 'lines'} of this server in the last ${formatDuration(span)}: `
      + `it logged more than ${linesPerSecond} lines or ${Math.round(charsPerSecond / 1024)} KB a second (${this.total} dropped since it started)`);
  }
}

/** The characters a value's JSON would take, measured without recursion and only up to MEASURE_CAP. */
function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size < MEASURE_CAP) {
    const node = stack.pop();
    if (typeof node === 'string') size += node.length + 2;
    else if (typeof node !== 'object' || node === null) size += 8;
    else if (Array.isArray(node)) { size += 2; stack.push(...node.slice(0, MEASURE_CAP - size)); }
    else for (const [key, child] of Object.entries(node)) { size += key.length + 4; stack.push(child); }
  }
  return Math.min(size, MEASURE_CAP);
}
