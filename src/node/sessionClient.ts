// The SDK Client as a session uses it, with one addition: progress notifications that outlive their
// request. A tool call run as a task (the Tasks extension) reports progress on the call's token until
// the task ends, long after the call was answered with the created task; the SDK forgets a token when
// its request is answered, so such tokens are routed here instead.
import { BoundedSchemaValidator } from './boundedSchemaValidator';
import { Client, type ClientOptions, type JSONRPCNotification, type MessageExtraInfo } from './sdk';

/** What a progress notification says. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export class SessionClient extends Client {
  private readonly progressRoutes = new Map<string, (update: ProgressUpdate) => void>();
  private readonly schemas: BoundedSchemaValidator | undefined;

  constructor(info: ConstructorParameters<typeof Client>[0], options?: ClientOptions) {
    super(info, options);
    this.schemas = options?.jsonSchemaValidator instanceof BoundedSchemaValidator ? options.jsonSchemaValidator : undefined;
  }

  /** Compiles the output schemas of a tools listing as it arrives, not on the first call after it (boundedSchemaValidator.ts). */
  prepareOutputSchemas(tools: readonly { outputSchema?: unknown }[]): void {
    this.schemas?.prepare(tools);
  }

  /** Sends `notifications/progress` for `token` to `listener` until the returned function is called. */
  routeProgress(token: string, listener: (update: ProgressUpdate) => void): () => void {
    this.progressRoutes.set(token, listener);
    return () => { if (this.progressRoutes.get(token) === listener) this.progressRoutes.delete(token); };
  }

  protected override _onnotification(notification: JSONRPCNotification, extra?: MessageExtraInfo): void {
    if (notification.method === 'notifications/progress') {
      const params = notification.params as { progressToken?: unknown; progress?: unknown; total?: unknown; message?: unknown } | undefined;
      const route = typeof params?.progressToken === 'string' ? this.progressRoutes.get(params.progressToken) : undefined;
      if (route && typeof params?.progress === 'number') {
        const update: ProgressUpdate = { progress: params.progress };
        if (typeof params.total === 'number') update.total = params.total;
        if (typeof params.message === 'string') update.message = params.message;
        route(update);
        return;
      }
    }
    super._onnotification(notification, extra);
  }
}
