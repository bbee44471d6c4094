// How long a tool call took, in words, the same in the Sidebar's history and the chat: the wait for
// the person's answer and the server's run apart ("waited 3.2 s · ran 8 ms"), so a slow decision is
// not read as a slow tool. Calls whose two parts were not measured show their one total.

/** The parts of a call's time that were measured. */
export interface CallDurations {
  /** From the call to its result, everything included. */
  readonly durationMs?: number;
  /** How long its approval card waited for the person (only when a card asked). */
  readonly waitedMs?: number;
  /** From sending it to the server to its result (only when it was sent). */
  readonly ranMs?: number;
}

/** The durations in words ("waited 3.2 s · ran 8 ms", or the total alone), or '' when none was measured. */
export function durationWords(row: CallDurations): string {
  const parts = [
    row.waitedMs !== undefined ? `waited ${formatMs(row.waitedMs)}` : undefined,
    row.ranMs !== undefined ? `ran ${formatMs(row.ranMs)}` : undefined,
  ].filter((part): part is string => part !== undefined);
  if (parts.length > 0) return parts.join(' · ');
  return row.durationMs !== undefined ? formatMs(row.durationMs) : '';
}

/** Milliseconds as a person reads them: "80 ms" under a second, "12.4 s" from there. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
