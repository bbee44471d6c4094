// One code-mode run: the script in the sandbox, its `tools.<server>.<tool>(args)` calls each sent
// through the one call path (the ToolCallGate, caller `code`: the same approvals, cards, rules and
// history as a direct call), and what it printed with the list of calls it made.
import type { ToolCallRequest } from '../calls/types';
import type { ModelToolCatalog } from '../chat/modelTools';
import type { PersonalDataVault } from '../chat/personalData';
import type { CallToolResult } from '../lifecycle/types';
import { CodeApi, CodeCallError, codeValueOf } from './codeApi';
import { runInSandbox, type SandboxEngine, type SandboxLimits, type SandboxRun } from './sandbox';

/** The caller the gate records for calls a script makes. */
export const CODE_CALLER = 'code';

/** Why a call still in flight when its run ended did not answer. */
const ABANDONED = 'the script ended before this call did; the call was cancelled';

/** One call a script made, as the run reports it. */
export interface CodeCallRecord {
  server: string;
  tool: string;
  ok: boolean;
  /** Why it did not succeed (the message the script got). */
  error?: string;
}

/** How a run went: what it printed, the calls it made, and why it ended early, if it did. */
export interface CodeRunResult {
  output: string;
  calls: CodeCallRecord[];
  error?: string;
}

export interface CodeRunOptions {
  engine: SandboxEngine;
  /** The tools the script may call (the ready servers' offered tools, under their model names). */
  catalog: ModelToolCatalog;
  /** The one call path (ToolCallGate.call). */
  call(request: ToolCallRequest): Promise<CallToolResult>;
  signal?: AbortSignal;
  limits?: Partial<SandboxLimits>;
  /** Personal data masking: the output is masked and placeholders in call arguments restored. */
  vault?: PersonalDataVault;
  /** Told of each call as it ends (progress in the chat, say). */
  onCall?(record: CodeCallRecord): void;
  /** Told when a call waits for the person's approval, with its card's id (the chat says so). */
  onAwaitingApproval?(approvalId: string, server: string, tool: string): void;
}

/** Runs `code` against the catalog's tools. Never rejects: a failing script ends with `error` set. */
export async function runCode(code: string, options: CodeRunOptions): Promise<CodeRunResult> {
  const api = new CodeApi(options.catalog);
  const calls: CodeCallRecord[] = [];
  // The run's own signal, in every request it sends: when the run ends (for any reason: done, a bound,
  // an error, the caller's cancel), its calls still in flight end too. A call waiting for its approval
  // card must not run its tool once the model has been told how the script ended.
  const runAbort = new AbortController();
  const cancel = (): void => runAbort.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', cancel);
  if (options.signal?.aborted) cancel();
  const signal = runAbort.signal;
  let ended = false;
  const inFlight = new Set<{ server: string; tool: string }>();
  const note = (record: CodeCallRecord): void => {
    if (ended) return; // the run's result is out: a call ending after it is not part of it
    calls.push(record);
    options.onCall?.(record);
  };
  let run: SandboxRun;
  try {
    run = await runInSandbox(options.engine, code, {
      api: api.names(),
      limits: options.limits,
      signal,
      call: async (serverKey, toolKey, args) => {
        const tool = api.tool(serverKey, toolKey);
        if (tool === undefined) throw new CodeCallError(`there is no tool tools.${serverKey}.${toolKey}`);
        if (signal.aborted) throw new CodeCallError('the run was cancelled');
        const request: ToolCallRequest = {
          serverId: tool.server,
          tool: tool.tool.name,
          arguments: options.vault ? options.vault.restore(args) : args,
          caller: CODE_CALLER,
          signal,
          ...(options.onAwaitingApproval ? { onAwaitingApproval: (approvalId: string) => options.onAwaitingApproval?.(approvalId, tool.server, tool.tool.name) } : {}),
        };
        const entry = { server: tool.server, tool: tool.tool.name };
        inFlight.add(entry);
        let result: CallToolResult;
        try {
          result = await options.call(request);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          note({ ...entry, ok: false, error: message });
          throw new CodeCallError(message);
        } finally {
          inFlight.delete(entry);
        }
        try {
          const value = codeValueOf(tool, result);
          note({ ...entry, ok: true });
          return value;
        } catch (error) {
          note({ ...entry, ok: false, error: (error as Error).message });
          throw error;
        }
      },
    });
  } finally {
    options.signal?.removeEventListener('abort', cancel);
    // Calls the script left in flight are abandoned: each is reported as such, and its request ends.
    for (const entry of inFlight) note({ ...entry, ok: false, error: ABANDONED });
    ended = true;
    runAbort.abort(new Error(ABANDONED));
  }
  const mask = (text: string): string => (options.vault ? options.vault.mask(text) : text);
  return { output: mask(run.output), calls, ...(run.error !== undefined ? { error: mask(run.error) } : {}) };
}
