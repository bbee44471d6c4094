// Turns one call through the gate, and how the approval step decided it, into the history's record:
// who decided (the person, a rule, the mode, the tool's hints, the gate), whether it ran, how long it
// took (waiting for the person and running, apart), how big the answer was, and what went wrong. Arguments are scrubbed of the server's known
// secrets before they are kept.
import type { ToolCallRecord } from '../calls/types';
import type { StepOutcome } from './approvalStep';
import type { CallRecord, DecidedByLabel } from './callHistory';

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

/** The history's record of one finished call. */
export function callRecordOf(record: ToolCallRecord, outcome: StepOutcome | undefined, options: CallRecordOptions): CallRecord {
  const { request } = record;
  const refused = record.outcome.kind === 'refused';
  const decision = outcome?.decision.decision ?? (refused ? 'deny' : 'allow');
  return {
    id: options.id,
    at: record.startedAt,
    server: request.serverId,
    tool: request.tool,
    args: scrubValue(record.arguments, options.scrub) as Record<string, unknown>,
    decision,
    ran: record.sent,
    decidedBy: decidedByOf(record, outcome),
    reason: outcome?.decision.reason ?? (refused ? 'refused before the approval step' : 'allowed'),
    durationMs: record.durationMs,
    ...(outcome?.waitedMs !== undefined ? { waitedMs: outcome.waitedMs } : {}),
    ...(record.ranMs !== undefined ? { ranMs: record.ranMs } : {}),
    ...(record.outcome.kind === 'result' ? { resultChars: jsonLength(record.outcome.result) } : {}),
    ...errorOf(record, options.scrub),
    ...(options.outputWarning !== undefined ? { outputWarning: clip(options.scrub(options.outputWarning)) } : {}),
    caller: request.caller,
  };
}

function decidedByOf(record: ToolCallRecord, outcome: StepOutcome | undefined): DecidedByLabel {
  if (outcome === undefined) return record.outcome.kind === 'refused' ? { kind: 'gate', detail: record.outcome.code } : { kind: 'default' };
  if (outcome.answer !== undefined) return { kind: 'person', answer: outcome.answer };
  const by = outcome.decision.decidedBy;
  switch (by.kind) {
    case 'rule': return { kind: 'rule', ruleId: by.ruleId };
    case 'mode': return { kind: 'mode', detail: by.mode };
    case 'annotations': return { kind: 'annotations' };
    case 'review': return { kind: 'review' };
    case 'default': return { kind: 'default' };
  }
}

function errorOf(record: ToolCallRecord, scrub: (text: string) => string): { error?: string } {
  const { outcome } = record;
  if (outcome.kind === 'refused' || outcome.kind === 'failed') return { error: clip(scrub(outcome.message)) };
  if (outcome.result.isError !== true) return {};
  const text = outcome.result.content
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .filter((part) => part !== '')
    .join('\n');
  return { error: clip(scrub(text === '' ? 'the tool reported an error' : text)) };
}

function clip(text: string): string {
  return text.length > ERROR_LIMIT ? `${text.slice(0, ERROR_LIMIT - 1)}…` : text;
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** Copies a JSON value with every string scrubbed. */
function scrubValue(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, scrub));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubValue(item, scrub)]));
  }
  return value;
}
