// A ServerConnector around another that fills in `${input:id}` at launch. Before the timed start
// (`prepare`) it makes sure every value is stored, asking a person for the missing ones; `connect`
// then hands the inner connector a copy of the server with the values in (command, args, env, cwd,
// url, headers, envFile) and reports the values to the one RedactingConnector in front of it
// (`request.addSecrets`), which scrubs them from every log line, error, close reason and catalog page:
// the connection is wrapped once, by that connector, not again here. The server the registry, the
// trust store and the UI see keeps the `${input:…}` text, so its fingerprint never depends on a value.
import type { EffectiveServer, InputDefinition } from '../../core/config/types';
import { inputsNeededBy, withInputValues } from '../../core/config/inputs';
import type { ConnectRequest, PrepareRequest, ServerConnection, ServerConnector } from '../../core/lifecycle/ports';
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
    // Without the redaction in front, a typed-in value could reach a log line: refuse to launch.
    if (request.addSecrets === undefined) throw new Error('the input-resolving connector needs a RedactingConnector in front of it');
    const values = await this.options.inputs.values(ids, inputOwnerOf(request.server));
    // Reported before the launch, so the redaction scrubs them from its first log line on.
    request.addSecrets(Object.values(values));
    return this.options.inner.connect({ ...request, server: withInputValues(request.server, values) });
  }
}
