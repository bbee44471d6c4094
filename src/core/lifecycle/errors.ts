// Errors the lifecycle core raises or understands. Adapters throw ConnectError; callers of the
// registry catch ServerNotRunningError and ConnectionClosedError.
import { ServerState } from './state';

/** A connector failure carrying the server's last stderr lines, so the failed state can show them. */
export class ConnectError extends Error {
  readonly stderrTail: string[];

  constructor(message: string, stderrTail: readonly string[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectError';
    this.stderrTail = [...stderrTail];
  }
}

/** A remote server needs a person to sign in (OAuth) before it can be used; the server parks in `needsSignIn`. */
export class SignInRequiredError extends ConnectError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, [], options);
    this.name = 'SignInRequiredError';
  }
}

/** A request to a server that is not ready; rejected at once instead of waiting for it. */
export class ServerNotRunningError extends Error {
  constructor(readonly serverId: string, readonly state: ServerState) {
    super(`server ${serverId} is not running (state: ${ServerState.label(state)})`);
    this.name = 'ServerNotRunningError';
  }
}

/**
 * A request cut short because its connection ended (crash, stop or restart), naming the server, why,
 * and, when it went away by itself, the last line it wrote on stderr (usually the cause).
 */
export class ConnectionClosedError extends Error {
  constructor(readonly serverId: string, readonly reason: string, stderrTail: readonly string[] = []) {
    const last = lastTellingLine(stderrTail);
    super(`server ${serverId} closed the connection: ${reason}${last !== undefined ? ` (last stderr line: ${last})` : ''}`);
    this.name = 'ConnectionClosedError';
  }
}

/** The last stderr line that says something: Node's crash output ends with a "Node.js v20.x" footer, the line before it is the one to show. */
function lastTellingLine(stderrTail: readonly string[]): string | undefined {
  for (let i = stderrTail.length - 1; i >= 0; i--) {
    const line = stderrTail[i].trim();
    if (line !== '' && !/^Node\.js v\d+\.\d+\.\d+$/.test(line)) return line;
  }
  return undefined;
}

/** The stderr tail attached to an error (a ConnectError, or any error with a string[] `stderrTail`). */
export function stderrTailOf(error: unknown): string[] {
  if (error instanceof ConnectError) return [...error.stderrTail];
  const tail = typeof error === 'object' && error !== null ? (error as { stderrTail?: unknown }).stderrTail : undefined;
  return Array.isArray(tail) && tail.every((line) => typeof line === 'string') ? [...tail] as string[] : [];
}

/** The user-facing message of anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : String(error);
}
