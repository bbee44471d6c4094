// How a server process ended, in words. A signal is named whether the process itself died of it
// (Node reports the signal) or a launcher in between reported it the POSIX way, as exit code 128 + N:
// `npx`, `npm exec` and `sh -c` exit with 143 when the server under them was killed by SIGTERM. Saying
// "exited with code 143" there would hide that something killed the server.
import * as os from 'node:os';

export interface ExitDescription {
  /** The signal that ended the server: reported by Node, or read from a launcher's exit code 128 + N. */
  signal: NodeJS.Signals | null;
  /** "process exited with code 3", "process was killed by SIGKILL". */
  text: string;
  /** "exit code 143" when the signal was read from a launcher's exit code. */
  detail?: string;
}

/** Lowest and highest exit codes shells and npm use for "killed by signal N" (128 + N, N from 1 to 31). */
const FIRST_SIGNAL_CODE = 129;
const LAST_SIGNAL_CODE = 159;

/** Describes an exit as Node's 'exit' event reports it (code or signal). */
export function describeExit(code: number | null, signal: NodeJS.Signals | null, platform: NodeJS.Platform = process.platform): ExitDescription {
  if (signal) return { signal, text: `process was killed by ${signal}` };
  const reported = platform === 'win32' ? undefined : signalOfExitCode(code);
  if (reported) return { signal: reported, text: `process was killed by ${reported}`, detail: `exit code ${code}` };
  return { signal: null, text: `process exited with code ${code}` };
}

/** The reason of an exit for people: "process was killed by SIGTERM (exit code 143)", or, after a stop, "stopped (…)". */
export function exitReason(exit: ExitDescription, stopped: boolean): string {
  if (stopped) return `stopped (${exit.text}${exit.detail ? `, ${exit.detail}` : ''})`;
  return exit.detail ? `${exit.text} (${exit.detail})` : exit.text;
}

/** The signal an exit code of 128 + N stands for, when N is a signal this platform knows. */
function signalOfExitCode(code: number | null): NodeJS.Signals | undefined {
  if (code === null || code < FIRST_SIGNAL_CODE || code > LAST_SIGNAL_CODE) return undefined;
  const number = code - 128;
  const names = Object.entries(os.constants.signals) as [NodeJS.Signals, number][];
  return names.find(([, value]) => value === number)?.[0];
}
