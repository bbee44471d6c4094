// The line a chat turn shows after each tool call: which tool, on which server, and how long it took,
// the wait for the person's answer apart from the server's run, as the Sidebar's history says it.
// Imports nothing from vscode, so its words are tested in plain Node.
import { durationWords, type CallDurations } from '../../protocol/durations';

/** `> ✓ ran `name` (what, waited 3.2 s · ran 8 ms)` and, for a failure, why. */
export function toolCallLine(name: string, what: string, durations: CallDurations, error?: string): string {
  const took = durationWords(durations);
  return `\n\n> ${error !== undefined ? '✗' : '✓'} ran \`${name}\` (${what}${took !== '' ? `, ${took}` : ''})${error !== undefined ? `: ${error}` : ''}\n\n`;
}
