// Telling a request the server answered from one that never got an answer. A JSON-RPC error is the
// server's answer (its "Method not found" included), and so is a result the SDK refused because it
// does not fit the protocol (e.g. a 2026-07-28 result without `resultType`): the request went out and
// came back. Everything else — the transport failing, a timeout, a refused sign-in — did not.
import { ProtocolError, SdkError, SdkErrorCode } from './sdk';

/** Whether `error` (or one of its causes) is the server's answer to a request: a JSON-RPC error, or a result that does not fit the protocol. */
export function isServerAnswer(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (current instanceof ProtocolError) return true;
    if (current instanceof SdkError && current.code === SdkErrorCode.InvalidResult) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
