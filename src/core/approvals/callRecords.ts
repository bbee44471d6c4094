// Turns one call through the gate, with the decision its record carries, into the history's record:
// who decided (the person, a rule, the mode, the tool's hints, the gate), whether it ran, how long it
// took (waiting for the person and running, apart), how big the answer was, and what went wrong. Arguments are scrubbed of the server's known
// secrets before they are kept.
import type { ToolCallRecord } from '../calls/types';
import type { CallRecord } from './callHistory';
import { jsonLength } from './jsonLength';

export interface CallRecordOptions {
  /** The record's id (the approval's id when one was asked). */
  readonly id: string;
  /** Masks secrets in a text (the server's known secret values). */
  scrub(text: string): string;
  /** What the output scan found in the result, in words (see core/chat/outputReview). */
  readonly outputWarning?: string;
}

/** Characters of an error kept in the history. */
const ERROR_LIMIT = 2000;

/** The history's record of one finished call. Built field by field: it runs once for every call. */
export function callRecordOf(record: ToolCallRecord, options: CallRecordOptions): CallRecord {
  const { request, decision: decided, outcome } = record;
  const refused = outcome.kind === 'refused';
  const entry: { -readonly [K in keyof CallRecord]: CallRecord[K] } = {
    id: options.id,
    at: record.startedAt,
    server: request.serverId,
    tool: request.tool,
    args: scrubValue(record.arguments, options.scrub) as Record<string, unknown>,
    decision: decided?.verdict ?? (refused ? 'deny' : 'allow'),
    ran: record.sent,
    decidedBy: decided?.decidedBy ?? (outcome.kind === 'refused' ? { kind: 'gate', detail: outcome.code } : { kind: 'default' }),
    reason: decided?.why ?? (refused ? 'refused before the approval step' : 'allowed'),
    durationMs: record.durationMs,
    caller: request.caller,
  };
  if (decided?.waitedMs !== undefined) entry.waitedMs = decided.waitedMs;
  if (record.ranMs !== undefined) entry.ranMs = record.ranMs;
  if (record.taskId !== undefined) entry.taskId = record.taskId;
  if (outcome.kind === 'result') entry.resultChars = jsonLength(outcome.result);
  const error = errorOf(record, options.scrub);
  if (error !== undefined) entry.error = error;
  if (options.outputWarning !== undefined) entry.outputWarning = clip(options.scrub(options.outputWarning));
  return entry;
}

function errorOf(record: ToolCallRecord, scrub: (text: string) => string): string | undefined {
  const { outcome } = record;
  if (outcome.kind === 'refused' || outcome.kind === 'failed') return clip(scrub(outcome.message));
  if (outcome.result.isError !== true) return undefined;
  const text = outcome.result.content
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .filter((part) => part !== '')
    .join('\n');
  return clip(scrub(text === '' ? 'the tool reported an error' : text));
}

function clip(text: string): string {
  return text.length > ERROR_LIMIT ? `${text.slice(0, ERROR_LIMIT - 1)}…` : text;
}

/** Copies a JSON value with every string scrubbed. */
function scrubValue(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, scrub));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = scrubValue((value as Record<string, unknown>)[key], scrub);
      // An argument named __proto__ stays an argument (an assignment would set the copy's prototype).
      if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
      else copy[key] = item;
    }
    return copy;
  }
  return value;
}
