// Requests to the extension, correlated with their replies by id.
import type { ErrorMessage, ParamsOf, RequestMessage, ResponseMessage, ResultOf, RpcError } from '../src/protocol/rpc';
import type { SidebarMethod, SidebarRequest, WebviewToHostMessage } from '../src/protocol/sidebarMessages';

/** A request the extension answered with an error. */
export class RpcFailure extends Error {
  constructor(readonly error: RpcError) {
    super(error.message);
  }
}

interface Pending {
  readonly method: SidebarMethod;
  resolve(result: ResultOf<SidebarRequest, SidebarMethod>): void;
  reject(failure: RpcFailure): void;
}

export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly post: (message: WebviewToHostMessage) => void) {}

  request<M extends SidebarMethod>(method: M, params: ParamsOf<SidebarRequest, M>): Promise<ResultOf<SidebarRequest, M>> {
    const id = this.nextId++;
    // TypeScript cannot correlate a generic M with one member of the distributed union; the
    // signature above is what keeps method and params paired.
    const message = { type: 'request', id, method, params } as RequestMessage<SidebarRequest>;
    return new Promise<ResultOf<SidebarRequest, M>>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as Pending['resolve'], reject });
      this.post(message);
    });
  }

  /** Settles the request a reply belongs to; replies to unknown ids (an earlier page) are ignored. */
  settle(reply: ResponseMessage<SidebarRequest> | ErrorMessage): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (reply.type === 'error') pending.reject(new RpcFailure(reply.error));
    else if (reply.method !== pending.method) {
      pending.reject(new RpcFailure({ code: 'invalidRequest', message: `Reply for ${reply.method} answered ${pending.method}.` }));
    } else pending.resolve(reply.result);
  }
}
