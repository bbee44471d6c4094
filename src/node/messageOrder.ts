// Keeps a server's progress notifications ahead of the response they precede.
import type { Transport } from './sdk';

/**
 * The SDK Client handles a response at once but a notification one microtask later, and it forgets a
 * request's progress handler as soon as the response is handled. A progress notification that arrives
 * in the same read as the response (common over stdio) is then dropped as "unknown token". Handing
 * responses to the Client one microtask later restores the order the server sent. Call it after
 * Client.connect, which installs the Client's onmessage.
 */
export function keepProgressBeforeResponses(transport: Transport): void {
  const dispatch = transport.onmessage;
  if (!dispatch) return;
  transport.onmessage = (message, extra) => {
    const isResponse = 'id' in message && !('method' in message);
    if (isResponse) queueMicrotask(() => dispatch(message, extra));
    else dispatch(message, extra);
  };
}
