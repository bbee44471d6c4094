// What a code-mode script prints is a tool result too: the tools' results went into the script, and any
// of them that brought outside content (a page, a README) can reach the model through what it prints.
// So when a run called such a tool, its printed text is read by the same output scanner as a direct
// call's result; a run that called only tools that stay on this machine is not scanned.
import type { ModelToolCatalog } from '../chat/modelTools';
import { outsideContentReason, scanOutputTexts, type OutputFinding } from '../toolReview/outputScan';
import type { CodeCallRecord, CodeRunResult } from './codeRun';

/** The label of a run's printed output in warnings, cards and the history. */
export const CODE_OUTPUT_SOURCE = { server: 'code mode', tool: 'script output' } as const;

/** The calls (as `server › tool`, each once) to tools that bring outside content, in the order made. */
export function outsideCodeCalls(calls: readonly CodeCallRecord[], catalog: ModelToolCatalog): string[] {
  const labels: string[] = [];
  for (const call of calls) {
    const tool = catalog.findByRef(call.server, call.tool);
    // A tool gone from the catalog since the call is read as bringing outside content: nothing says it stays here.
    if (tool !== undefined && outsideContentReason(tool.tool) === undefined) continue;
    const label = `${call.server} › ${call.tool}`;
    if (!labels.includes(label)) labels.push(label);
  }
  return labels;
}

/** What the scan found in a run's text (`text` is what the model will read), and which calls made it scanned. */
export function scanCodeOutput(result: CodeRunResult, text: string, catalog: ModelToolCatalog): { findings: OutputFinding[]; outside: string[] } {
  const outside = outsideCodeCalls(result.calls, catalog);
  return { findings: outside.length === 0 ? [] : scanOutputTexts([text]), outside };
}
