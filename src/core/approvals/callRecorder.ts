// What becomes of each call the gate finished: the history's record, built from the record the gate
// answers (the decision and who made it travel with it), with the server's known secrets scrubbed out
// and what the output scan found in a result that brings outside content. The extension subscribes it
// to the gate's onDidCall; the bench does the same, so it measures this very path.
import type { ToolCallRecord } from '../calls/types';
import { describeFindings, scanToolResult } from '../chat/outputReview';
import type { EffectiveServer, LaunchDefinition } from '../config/types';
import { secretsOf, textRedactor } from '../lifecycle/redact';
import type { ToolInfo } from '../lifecycle/types';
import type { CallRecord } from './callHistory';
import { callRecordOf } from './callRecords';

/** Where the recorder looks up the call's server and tool as they are when the call ended (a ServerRegistry). */
export interface RecordedServers {
  get(id: string): { readonly server: EffectiveServer; readonly catalog: { readonly tools: readonly ToolInfo[] } } | undefined;
}

export interface CallRecorderOptions {
  readonly servers: RecordedServers;
  /** Where the records go (the history). */
  readonly history: { record(entry: CallRecord): void };
  /** A fresh id for a call no approval card was asked about. */
  newId(): string;
}

const unchanged = (text: string): string => text;

/**
 * Ids for the calls no card was asked about: a random prefix (one per session, e.g. a UUID) keeps them
 * apart from earlier sessions' records, a counter apart from each other — a fresh UUID per call costs
 * more than the rest of the record.
 */
export function callIdSequence(prefix: string): () => string {
  const head = `${prefix}-`;
  let next = 0;
  // Decimal: a number's decimal text comes from V8's number-string cache, another radix from a runtime call.
  return () => head + next++;
}

/** Turns every finished call into a history record. */
export class CallRecorder {
  /** The scrubber of each launch's secrets, found once per definition (a new configuration brings new objects). */
  private readonly scrubbers = new WeakMap<LaunchDefinition, (text: string) => string>();

  constructor(private readonly options: CallRecorderOptions) {}

  /** Records a call the gate finished (subscribe it to the gate's onDidCall). */
  record(record: ToolCallRecord): void {
    const view = this.options.servers.get(record.request.serverId);
    // A result that brings outside content is scanned here too, so the history says what it carried whoever called.
    const tool = view?.catalog.tools.find((candidate) => candidate.name === record.request.tool);
    const findings = record.outcome.kind === 'result' && tool !== undefined ? scanToolResult(tool, record.outcome.result) : [];
    const id = record.decision?.approvalId ?? this.options.newId();
    const scrub = view === undefined ? unchanged : this.scrubberOf(view.server.launch);
    this.options.history.record(callRecordOf(record, findings.length > 0 ? { id, scrub, outputWarning: describeFindings(findings) } : { id, scrub }));
  }

  private scrubberOf(launch: LaunchDefinition): (text: string) => string {
    let scrub = this.scrubbers.get(launch);
    if (scrub === undefined) {
      scrub = textRedactor(secretsOf(launch));
      this.scrubbers.set(launch, scrub);
    }
    return scrub;
  }
}
