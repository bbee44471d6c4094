// One SDK Client on one transport, initialized: the unit a connection replaces when an HTTP session
// expires. It makes the transport's close() idempotent, so that only the first close counts.
import type { CloseInfo, ServerLog } from '../core/lifecycle/ports';
import type { CatalogKind } from '../core/lifecycle/types';
import type { TaskState } from '../core/tasks/types';
import type { ConnectAuthProvider } from './auth/oauthSupport';
import { canFinishAuth, type RemoteKind } from './remoteTransports';
import { SdkHttpError, UnauthorizedError, type Transport } from './sdk';
import type { SessionClient } from './sessionClient';

/** Sign-ins (scope step-up) answered for one request before it fails. */
const MAX_AUTH_ROUNDS = 3;

/** The stdio process under a session, as far as the connection needs it. */
export interface StdioProcessInfo {
  /** The last stderr lines, oldest first. */
  stderrTail(): string[];
  /** How the process ended, once it has (reason such as "process exited with code 1"). */
  exit(): Omit<CloseInfo, 'stderrTail'> | undefined;
}

/** What a session reports to the connection that owns it. */
export interface SessionSink {
  listChanged(kind: CatalogKind): void;
  /** `notifications/resources/updated` for `uri`. */
  resourceUpdated(uri: string): void;
  /** A notifications/tasks/status arrived. */
  taskStatus?(task: TaskState): void;
}

/** One SDK Client on one transport, initialized. A connection replaces it when an HTTP session expires. */
export class McpSession {
  private closedFlag = false;
  private closing: Promise<void> | undefined;
  /** The transport's own close(); a second call on a process transport kills its process group at once. */
  private readonly closeTransport: () => Promise<void>;
  /** Set when the session was replaced because the server expired it: its failures mean "retry on the new one". */
  expiredAndReplaced = false;
  private closeListener: (() => void) | undefined;
  private errorListener: ((error: Error) => void) | undefined;
  /** Why the session is being closed, when we close it because of something the server did. */
  closeReason: string | undefined;

  constructor(
    readonly client: SessionClient,
    readonly transport: Transport,
    readonly kind: 'stdio' | RemoteKind,
    /** The server's URL (remote kinds). */
    readonly url: string | undefined,
    readonly process: StdioProcessInfo | undefined,
    /** The OAuth provider of a remote session, when it does OAuth. */
    readonly auth?: ConnectAuthProvider,
  ) {
    client.onclose = () => {
      this.closedFlag = true;
      this.closeListener?.();
    };
    client.onerror = (error) => this.errorListener?.(error);
    // Everyone closes this transport: the SDK Client when initialize fails, we on failure or stop. Only
    // the first close counts (a second one would turn the staged stop of a process into an immediate
    // kill); later calls share its promise. Deferred by a microtask so that a transport calling onclose
    // synchronously from close() cannot re-enter it.
    this.closeTransport = transport.close.bind(transport);
    transport.close = () => {
      this.closing ??= Promise.resolve().then(() => this.closeTransport()).catch(() => undefined);
      return this.closing;
    };
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Sets the single close listener; called at once when the session is already closed. */
  onClosed(listener: (() => void) | undefined): void {
    this.closeListener = listener;
    if (listener && this.closedFlag) listener();
  }

  onError(listener: ((error: Error) => void) | undefined): void {
    this.errorListener = listener;
  }

  /**
   * Closes the transport (for stdio: the staged process shutdown; also after the process exited by
   * itself, so that its group is reaped). Resolves when it is gone; never throws; idempotent.
   */
  shutdown(): Promise<void> {
    return this.transport.close();
  }

  /**
   * After a request failed with the SDK's UnauthorizedError: when the provider's agent brought back an
   * authorization code (a step-up sign-in), exchanges it for tokens and resolves true (retry the
   * request); resolves false when there is nothing to finish.
   */
  async finishAuthorization(): Promise<boolean> {
    const response = this.auth?.takeAuthorizationResponse?.();
    if (response === undefined || !canFinishAuth(this.transport)) return false;
    await this.transport.finishAuth(response.code, response.iss);
    return true;
  }

  /**
   * Runs a request on a session doing OAuth. When the server asks for more access mid-session (403
   * insufficient_scope: the SDK starts a sign-in for the larger scope) and the provider's agent brought
   * back a code, the code is exchanged and the request sent again, a bounded number of times.
   */
  async withAuthorization<T>(run: (client: SessionClient) => Promise<T>, log: ServerLog): Promise<T> {
    for (let round = 1; ; round++) {
      try {
        return await run(this.client);
      } catch (error) {
        if (round >= MAX_AUTH_ROUNDS) throw error;
        if (error instanceof SdkHttpError && error.status === 401) {
          // The transport counts one completed sign-in for all its requests: a request sent with the old
          // token while another one refreshed it is refused as "401 after successful authentication".
          // Sent again, it carries the new token.
          continue;
        }
        if (!(error instanceof UnauthorizedError) || !(await this.finishAuthorization())) throw error;
        log.info('signed in for more access; sending the request again');
      }
    }
  }

  /** Ends the session now: the transport's close() called a second time kills a process group at once. */
  async kill(): Promise<void> {
    await Promise.all([this.shutdown(), this.closeTransport().catch(() => undefined)]);
  }
}
