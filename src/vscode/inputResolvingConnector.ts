// A ServerConnector around another that fills in `${input:id}` at launch. Before the timed start
// (`prepare`) it makes sure every value is stored, asking a person for the missing ones; `connect`
// then hands the inner connector a copy of the server with the values in (command, args, env, cwd,
// url, headers, envFile) and wraps the log and the connection so that no value reaches a log line,
// an error, a close reason or the catalog. The server the registry, the trust store and the UI see
// keeps the `${input:…}` text, so its fingerprint never depends on a value.
import type { EffectiveServer, InputDefinition } from '../core/config/types';
import { inputsNeededBy, withInputValues } from '../core/config/inputs';
import type { ConnectRequest, PrepareRequest, ServerConnection, ServerConnector } from '../core/lifecycle/ports';
import { redactError, redactingConnection, redactingLog, SecretSet } from '../core/lifecycle/redactConnection';
import { inputOwnerOf } from './inputKeys';
import type { WorkspaceInputs } from './workspaceInputs';

export interface InputResolvingConnectorOptions {
  inner: ServerConnector;
  inputs: Pick<WorkspaceInputs, 'ensure' | 'values'>;
  /** The `inputs` entry that declares `id` for this server. */
  definitionOf(server: EffectiveServer, id: string): InputDefinition | undefined;
}

export class InputResolvingConnector implements ServerConnector {
  constructor(private readonly options: InputResolvingConnectorOptions) {}

  async prepare(request: PrepareRequest): Promise<void> {
    const { server, automatic, signal } = request;
    const ids = inputsNeededBy(server);
    if (ids.length > 0) {
      await this.options.inputs.ensure(ids, {
        serverId: server.id,
        owner: inputOwnerOf(server),
        interactive: !automatic,
        signal,
        definitionOf: (id) => this.options.definitionOf(server, id),
      });
    }
    await this.options.inner.prepare?.(request);
  }

  async connect(request: ConnectRequest): Promise<ServerConnection> {
    const ids = inputsNeededBy(request.server);
    if (ids.length === 0) return this.options.inner.connect(request);
    const values = await this.options.inputs.values(ids, inputOwnerOf(request.server));
    const secrets = new SecretSet(Object.values(values));
    // The redaction in front of this connector learns the values too (and what the inner one reports).
    request.addSecrets?.(Object.values(values));
    const addSecrets = (more: Iterable<string>): void => {
      secrets.add(more);
      request.addSecrets?.(more);
    };
    const server = withInputValues(request.server, values);
    try {
      const connection = await this.options.inner.connect({ ...request, server, log: redactingLog(request.log, secrets), addSecrets });
      return redactingConnection(connection, secrets);
    } catch (error) {
      throw redactError(error, secrets);
    }
  }
}
