// Keeps a server's progress notifications ahead of the response they precede.
import type { JSONRPCMessage, Transport } from './sdk';

type Dispatch = NonNullable<Transport['onmessage']>;
type MessageExtra = Parameters<Dispatch>[1];

/**
 * The SDK Client handles a response at once but a notification one microtask later, and it forgets a
 * request's progress handler as soon as the response is handled. A progress notification that arrives
 * in the same read as the response (common over stdio) is then dropped as "unknown token". Handing
 * such a response to the Client one microtask later restores the order the server sent. A response
 * with no notification still waiting to be handled goes to the Client at once: nothing can overtake
 * it, and most calls (no progress, no log message) skip a promise per answer. Call it after
 * Client.connect, which installs the Client's onmessage.
 */
export function keepProgressBeforeResponses(transport: Transport): void {
  const dispatch = transport.onmessage;
  if (!dispatch) return;
  /** Notifications handed to the Client that it may not have handled yet. */
  let pending = 0;
  const handled = (): void => { pending--; };
  transport.onmessage = (message, extra) => {
    const isResponse = 'id' in message && !('method' in message);
    if (!isResponse) {
      pending++;
      try {
        dispatch(message, extra);
      } finally {
        // Queued after the Client queued its handling of this notification, so it runs after it.
        void Promise.resolve().then(handled);
      }
      return;
    }
    // A resolved promise's reaction: the same microtask queue as the SDK's notification handlers, and
    // cheaper than queueMicrotask (which makes an async resource per call).
    if (pending > 0) void Promise.resolve().then(() => deliver(transport, dispatch, message, extra));
    else deliver(transport, dispatch, message, extra);
  };
}

/** Hands a response to the Client; what it throws goes to onerror, as the transport would report it. */
function deliver(transport: Transport, dispatch: Dispatch, message: JSONRPCMessage, extra: MessageExtra): void {
  try {
    dispatch(message, extra);
  } catch (error) {
    transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}
