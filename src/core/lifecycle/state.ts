// A server's lifecycle state: one discriminated union, changed in one place (the server controller),
// with helpers in a namespace of the same name.

export type ServerState =
  | { kind: 'stopped' }
  | { kind: 'starting'; since: number }
  | { kind: 'ready'; since: number; startMs: number }
  /** `hint`: what to do about it, when stderr names the cause (a missing environment variable). */
  | { kind: 'failed'; error: string; stderrTail: string[]; hint?: string }
  | { kind: 'crashed'; exitCode: number | null; signal: string | null; error: string; stderrTail: string[] }
  | { kind: 'restarting'; attempt: number; at: number; reason: string }
  /** A Stop is under way: the process is being shut down (stdin closed, then SIGTERM, then SIGKILL). */
  | { kind: 'stopping'; since: number }
  | { kind: 'needsTrust' }
  // A remote server answered 401 and no stored token (or refresh) got past it: a person must sign in.
  | { kind: 'needsSignIn'; reason: string }
  /** Held, not running: its entry says `"disabled": true`, or `reason` says why else (another host runs it). */
  | { kind: 'disabled'; reason?: string };

export type ServerStateKind = ServerState['kind'];

export namespace ServerState {
  export const stopped: ServerState = { kind: 'stopped' };

  /** Whether a Start command makes sense in this state. */
  export function canStart(s: ServerState): boolean {
    switch (s.kind) {
      case 'stopped': case 'failed': case 'crashed': case 'needsTrust': case 'needsSignIn': case 'disabled': return true;
      case 'starting': case 'ready': case 'restarting': case 'stopping': return false;
      default: return assertNever(s);
    }
  }

  /**
   * Whether a Restart makes sense: the server runs, is on its way up, or ended in a failure it may get
   * past. A stopped or parked server is started, not restarted.
   */
  export function canRestart(s: ServerState): boolean {
    switch (s.kind) {
      case 'ready': case 'starting': case 'restarting': case 'crashed': case 'failed': return true;
      case 'stopped': case 'stopping': case 'needsTrust': case 'needsSignIn': case 'disabled': return false;
      default: return assertNever(s);
    }
  }

  /** Whether a process or connection may exist (so Stop has something to do; while stopping, it kills at once). */
  export function isActive(s: ServerState): boolean {
    switch (s.kind) {
      case 'starting': case 'ready': case 'restarting': case 'stopping': return true;
      case 'stopped': case 'failed': case 'crashed': case 'needsTrust': case 'needsSignIn': case 'disabled': return false;
      default: return assertNever(s);
    }
  }

  /** Short human label, e.g. for the Servers view's description. */
  export function label(s: ServerState): string {
    switch (s.kind) {
      case 'stopped': return 'stopped';
      case 'starting': return 'starting…';
      case 'ready': return 'ready';
      case 'failed': return 'failed';
      case 'crashed': return 'crashed';
      case 'restarting': return `restarting (attempt ${s.attempt})`;
      case 'stopping': return 'stopping…';
      case 'needsTrust': return 'needs trust';
      case 'needsSignIn': return 'needs sign-in';
      case 'disabled': return 'disabled';
      default: return assertNever(s);
    }
  }

  /** Whether the state is on its way to another by itself (starting, stopping, a crash about to restart). */
  export function isTransient(s: ServerState): boolean {
    switch (s.kind) {
      case 'starting': case 'restarting': case 'crashed': case 'stopping': return true;
      case 'stopped': case 'ready': case 'failed': case 'needsTrust': case 'needsSignIn': case 'disabled': return false;
      default: return assertNever(s);
    }
  }

  /** The reason to show for a failure-like state, if any. */
  export function reason(s: ServerState): string | undefined {
    switch (s.kind) {
      case 'failed': case 'crashed': return s.error;
      case 'restarting': case 'needsSignIn': case 'disabled': return s.reason;
      default: return undefined;
    }
  }
}

/** Compile-time exhaustiveness check for `switch` over unions. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
