// The connector to the servers and the OAuth providers it signs in with. Imported on a server's first
// start or a first sign-in (switchboardContext.ts), never at activation: the SDK client, its schemas,
// the transports and the OAuth code are not needed to show the views.
import * as vscode from 'vscode';
import { OAuthCredentialStore } from '../../node/auth/credentialStore';
import { OAuthProviders } from '../../node/auth/oauthSupport';
import { NodeServerConnector, processLauncher } from '../../node/connector';
import type { SecretDigest } from '../../core/trust/secretDigest';
import { ServerEnvironment } from '../../node/process/environment';
import type { Elicitations } from '../approvals/elicitations';
import type { Sampling } from '../approvals/sampling';

export interface LoadedConnector {
  readonly connector: NodeServerConnector;
  readonly oauth: OAuthProviders;
}

export interface ServerConnectionOptions {
  extension: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  oauthStore: OAuthCredentialStore;
  elicitations: Elicitations;
  sampling: Sampling;
  digest: SecretDigest;
}

export function createServerConnection(options: ServerConnectionOptions): LoadedConnector {
  const { extension, log, oauthStore, elicitations, sampling, digest } = options;
  const oauth = new OAuthProviders({ store: oauthStore, clientName: 'MCP Switchboard' });
  const connector = new NodeServerConnector({
    oauth,
    elicit: elicitations.elicit,
    elicitUrls: true,
    // Sampling is declared to a server only while VS Code has a language model to answer it.
    sample: sampling.sample,
    samplingAvailable: sampling.samplingAvailable,
    clientVersion: String((extension.extension.packageJSON as { version?: unknown }).version ?? '0.0.0'),
    launchStdio: processLauncher(new ServerEnvironment({
      // A local window may have been started from the Dock or a launcher, with a bare PATH: 'auto'
      // asks the login shell then (and only then). A remote window's extension host was started by
      // the remote side's own shell, so its PATH is already the user's.
      loginShell: vscode.env.remoteName === undefined ? 'auto' : 'never',
      debug: (message) => log.debug(message),
      envFileDigest: digest.digest,
    })),
  });
  return { connector, oauth };
}
