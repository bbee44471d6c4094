// The host's side of the sidebar's requests: checks what the page posted against the method table
// (sidebarMethods.ts) and runs the handler of a checked request.
import { isRecord, isRequestId, type RequestMessage, type RpcError } from './rpc';
import type { CheckedSidebarRequest, CheckedWebviewMessage, HostToWebviewMessage } from './sidebarMessages';
import { checkParams, isSidebarMethod, type SidebarHandlers } from './sidebarMethods';

/** What the host makes of data posted by the webview: a message it may act on, or why not. */
export type ParsedWebviewMessage =
  | { readonly ok: true; readonly message: CheckedWebviewMessage }
  | { readonly ok: false; readonly id?: number; readonly error: RpcError };

/**
 * Checks data posted by the webview against the table and rebuilds it, so the host never acts on
 * extra or mistyped fields. Never throws.
 */
export function parseWebviewMessage(data: unknown): ParsedWebviewMessage {
  if (!isRecord(data)) return { ok: false, error: { code: 'invalidRequest', message: 'Message is not an object.' } };
  if (data.type === 'ready') return { ok: true, message: { type: 'ready' } };
  if (data.type !== 'request') {
    return { ok: false, error: { code: 'invalidRequest', message: `Unknown message type: ${String(data.type)}.` } };
  }
  const { id, method: name } = data;
  if (!isRequestId(id)) return { ok: false, error: { code: 'invalidRequest', message: 'Request has no valid id.' } };
  if (!isSidebarMethod(name)) return { ok: false, id, error: { code: 'unknownMethod', message: `Unknown method: ${String(name)}.` } };
  const checked = checkParams(name, data.params);
  if (!checked.ok) return { ok: false, id, error: { code: 'invalidParams', message: checked.reason } };
  // The table pairs each method with its params; TypeScript cannot follow that through a generic name.
  return { ok: true, message: { type: 'request', id, method: name, params: checked.params } as CheckedWebviewMessage };
}

/**
 * Runs the handler of a checked request and builds the reply: its result (`null` for a method
 * whose reply carries no data), or `failed` with the error's message when the handler throws.
 */
export async function dispatchSidebarRequest(handlers: SidebarHandlers, request: RequestMessage<CheckedSidebarRequest>): Promise<HostToWebviewMessage> {
  try {
    // The table pairs each method with its params and its handler; TypeScript cannot follow that
    // pairing through the union, so the one call below is typed loosely.
    const handler = handlers[request.method] as (params: unknown) => unknown;
    const result = await handler.call(handlers, request.params);
    return { type: 'response', id: request.id, method: request.method, result: result ?? null } as HostToWebviewMessage;
  } catch (error) {
    return { type: 'error', id: request.id, error: { code: 'failed', message: error instanceof Error ? error.message : String(error) } };
  }
}
