// Request/response envelopes shared by the extension host and its webviews. Pure types plus the
// two small guards both sides need to read `unknown` message data without `any`.

/**
 * Declares one request: its method name, its params and the result the other side replies with.
 * A protocol is a union of these; the helpers below derive the wire messages from that union.
 */
export interface Request<Method extends string, Params, Result> {
  readonly method: Method;
  readonly params: Params;
  readonly result: Result;
}

/** Any request declaration. */
export type AnyRequest = Request<string, unknown, unknown>;

/** The method names of a request union. */
export type MethodOf<R extends AnyRequest> = R['method'];

/** The params of one method of a request union. */
export type ParamsOf<R extends AnyRequest, M extends MethodOf<R>> = Extract<R, { method: M }>['params'];

/** The result of one method of a request union. */
export type ResultOf<R extends AnyRequest, M extends MethodOf<R>> = Extract<R, { method: M }>['result'];

/** A request on the wire. Distributes over the union, so `switch (message.method)` narrows `params`. */
export type RequestMessage<R extends AnyRequest> = R extends AnyRequest
  ? { readonly type: 'request'; readonly id: number; readonly method: R['method']; readonly params: R['params'] }
  : never;

/** A successful reply, correlated with its request by `id`. */
export type ResponseMessage<R extends AnyRequest> = R extends AnyRequest
  ? { readonly type: 'response'; readonly id: number; readonly method: R['method']; readonly result: R['result'] }
  : never;

/** Why a request failed. `failed` means the handler ran and threw; the others mean it never ran. */
export type RpcErrorCode = 'invalidRequest' | 'unknownMethod' | 'invalidParams' | 'failed';

export interface RpcError {
  readonly code: RpcErrorCode;
  /** One sentence for a person: it is shown in the webview as it is. */
  readonly message: string;
}

/** A failed reply, correlated with its request by `id`. */
export interface ErrorMessage {
  readonly type: 'error';
  readonly id: number;
  readonly error: RpcError;
}

/** Narrows `unknown` message data to an object whose fields can be inspected. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for ids this protocol hands out: positive safe integers. */
export function isRequestId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}
