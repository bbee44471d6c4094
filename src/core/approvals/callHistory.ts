// The record of every tool call: when, which server and tool, with which arguments, what was decided
// and by whom (the person, a rule, the mode), how long it took, how big the result was, and the error.
// Kept newest first and bounded; persisting it is the adapters' business (they call `toJSON`/`restore`).

import type { ToolCallDecidedBy } from '../calls/types';

/** Who decided a call, as the gate's record carries it. */
export type DecidedByLabel = ToolCallDecidedBy;

export interface CallRecord {
  /** Stable id (also the approval's id when one was asked). */
  readonly id: string;
  /** Milliseconds since the epoch when the call was made. */
  readonly at: number;
  readonly server: string;
  readonly tool: string;
  /** The arguments as the server received them (after any edit in the card), secrets already scrubbed. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly decision: 'allow' | 'ask' | 'deny';
  /** Whether the call finally ran. */
  readonly ran: boolean;
  readonly decidedBy: DecidedByLabel;
  readonly reason: string;
  /** From the call to its result (or failure), pending approval included. */
  readonly durationMs?: number;
  /** How long the call waited for the person's answer (set when a card asked; older records lack it). */
  readonly waitedMs?: number;
  /** How long the server took, from sending to the result (set when it was sent; older records lack it). */
  readonly ranMs?: number;
  /** Characters of the result's JSON. */
  readonly resultChars?: number;
  readonly error?: string;
  /** What the output scan found in a result that brings outside content (in words), when it found anything. */
  readonly outputWarning?: string;
  /** Who called: `api`, `cli`, `chat`, `lm-tool`, `command`. */
  readonly caller: string;
  /** The server's id of the task, when the call ran as an MCP task. */
  readonly taskId?: string;
}

/** What the sidebar's history filter matches on. */
export interface HistoryFilter {
  readonly text?: string;
  readonly server?: string;
  readonly decision?: CallRecord['decision'];
  readonly onlyErrors?: boolean;
}

/** How many calls are kept (and persisted). */
export const HISTORY_LIMIT = 500;

/** How many calls beyond the limit are kept before the oldest are cut off at once. */
const TRIM_BATCH = 64;

/** Newest-first list of calls, at most `limit`. */
export class CallHistory {
  /**
   * Oldest first, so a call is added at the end; the kept calls are the last `limit` of it. What falls
   * out is cut off in batches of TRIM_BATCH, so adding a call does not move the whole list each time.
   */
  private records: CallRecord[] = [];

  constructor(private readonly limit = HISTORY_LIMIT) {}

  /**
   * Adds a finished call. A call is recorded once, under an id no other record has (an approval's id,
   * or the recorder's per-session sequence), so nothing is looked up: an index of ids would cost more
   * per call than the rest of its record.
   */
  record(entry: CallRecord): void {
    this.records.push(entry);
    if (this.records.length >= this.limit + TRIM_BATCH) this.records.splice(0, this.records.length - this.limit);
  }

  /** Every kept call, newest first. */
  list(filter: HistoryFilter = {}): CallRecord[] {
    const text = filter.text?.trim().toLowerCase();
    return this.kept().filter((r) =>
      (filter.server === undefined || r.server === filter.server)
      && (filter.decision === undefined || r.decision === filter.decision)
      && (!filter.onlyErrors || r.error !== undefined)
      && (!text || `${r.server} ${r.tool} ${r.reason} ${r.error ?? ''} ${safeJson(r.args)}`.toLowerCase().includes(text)));
  }

  clear(): void {
    this.records = [];
  }

  /** The kept calls as plain JSON, newest first (what is persisted and exported). */
  toJSON(): CallRecord[] {
    return this.kept().map((r) => ({ ...r }));
  }

  /** Restores persisted calls (newest first), skipping entries that are not records (a damaged file loses only those). */
  restore(value: unknown): number {
    if (!Array.isArray(value)) return 0;
    const valid = value.filter(isCallRecord).slice(0, this.limit);
    this.records = valid.reverse();
    return value.length - valid.length;
  }

  /** The kept calls, newest first. */
  private kept(): CallRecord[] {
    return this.records.slice(-this.limit).reverse();
  }
}

function isCallRecord(value: unknown): value is CallRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r.id === 'string' && typeof r.at === 'number' && typeof r.server === 'string' && typeof r.tool === 'string'
    && typeof r.args === 'object' && r.args !== null && (r.decision === 'allow' || r.decision === 'ask' || r.decision === 'deny')
    && typeof r.ran === 'boolean' && typeof r.reason === 'string' && typeof r.caller === 'string'
    && typeof r.decidedBy === 'object' && r.decidedBy !== null
    && [r.durationMs, r.waitedMs, r.ranMs].every((ms) => ms === undefined || (typeof ms === 'number' && Number.isFinite(ms)))
    && (r.taskId === undefined || typeof r.taskId === 'string');
}

function safeJson(value: unknown): string {
  try { return JSON.stringify(value) ?? ''; } catch { return ''; }
}
