// The connector every host puts in front of its real one, so that one redaction covers everything a
// launch produces: the log the connection writes to, the errors of a failed start and the
// connection's close reasons and catalog are scrubbed of the launch's secrets (secretsOf) and of what
// the inner connectors learn while launching (an env file's values, `${input:…}` answers), which they
// report through `request.addSecrets`.
import type { ConnectRequest, PrepareRequest, ServerConnection, ServerConnector } from './ports';
import { secretsOf } from './redact';
import { redactError, redactingConnection, redactingLog, SecretSet } from './redactConnection';

export class RedactingConnector implements ServerConnector {
  constructor(private readonly inner: ServerConnector) {}

  prepare(request: PrepareRequest): Promise<void> {
    return this.inner.prepare?.(request) ?? Promise.resolve();
  }

  async connect(request: ConnectRequest): Promise<ServerConnection> {
    const secrets = new SecretSet(secretsOf(request.server.launch));
    const addSecrets = (values: Iterable<string>): void => {
      secrets.add(values);
      request.addSecrets?.(values);
    };
    try {
      const connection = await this.inner.connect({ ...request, log: redactingLog(request.log, secrets), addSecrets });
      return redactingConnection(connection, secrets);
    } catch (error) {
      throw redactError(error, secrets);
    }
  }
}
