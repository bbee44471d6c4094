// Sign in / Sign out of OAuth-protected remote servers. Sign in shows the person which site will open
// (the authorization server's origin, first), opens it with vscode.env.openExternal, and receives the
// code on a one-shot loopback listener on 127.0.0.1 (src/node/auth): the SDK does the rest. Why the
// loopback redirect rather than VS Code's URI handler: a `vscode://` redirect needs the authorization
// server to accept a custom-scheme redirect URI (many that allow dynamic registration accept only
// https or loopback http, per RFC 8252), and VS Code for the Web has no such scheme at all; a loopback
// URI works with any server that follows the native-app profile. (When the extension host is remote,
// the browser's 127.0.0.1 is not the host's: see the README.)
// Tokens and registered clients are stored in SecretStorage per server URL; none is ever logged.
import * as vscode from 'vscode';
import type { EffectiveServer } from '../../core/config/types';
import { withInputValues, inputsNeededBy } from '../../core/config/inputs';
import { ServerState, type ServerRegistry } from '../../core/lifecycle';
import type { OAuthCredentialStore } from '../../node/auth/credentialStore';
import type { OAuthProviders } from '../../node/auth/oauthSupport';
import { RedirectError } from '../../node/auth/redirectListener';
import { signIn } from '../../node/auth/signIn';
import { displayUrl } from '../../node/remoteTransports';
import { confirm } from '../ui/dialogs';
import { inputOwnerOf } from '../inputs/inputKeys';
import type { WorkspaceInputs } from '../inputs/workspaceInputs';
import type { InputDefinition } from '../../core/config/types';
import { notifyInfo } from '../ui/notify';
import { registerReportingCommand } from '../reportingCommand';
import { plainText } from '../ui/plainText';

export const SIGN_IN_COMMANDS = {
  signIn: 'switchboard.signIn',
  signOut: 'switchboard.signOut',
  /** Test-only (registered under an extension test run only): `(script: boolean)` replaces the browser by a recorder. */
  scriptBrowser: '_switchboard.test.scriptSignInBrowser',
  /** Test-only: the authorization URLs the scripted browser was asked to open, oldest first. */
  openedPages: '_switchboard.test.signInPages',
} as const;

/** How long a person may take in the browser before the sign-in gives up. */
const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface SignInDeps {
  registry: ServerRegistry;
  store: OAuthCredentialStore;
  /** Loaded with the connector: the scope a refused connect asked for is kept there. */
  providers: () => Promise<OAuthProviders>;
  inputs: Pick<WorkspaceInputs, 'ensure' | 'values'>;
  definitionOf(server: EffectiveServer, id: string): InputDefinition | undefined;
  log: vscode.LogOutputChannel;
  clientName: string;
  testing: boolean;
}

export function registerSignInCommands(deps: SignInDeps): vscode.Disposable {
  const { registry, store, log } = deps;
  let scripted: string[] | undefined;
  const browser = (authorizationUrl: URL, server: EffectiveServer, redirect: string): Promise<boolean> => {
    if (scripted) { scripted.push(authorizationUrl.href); return Promise.resolve(true); }
    return confirmAndOpen(authorizationUrl, server, redirect);
  };

  const signInTo = async (id: string): Promise<ServerState['kind'] | undefined> => {
    const view = registry.get(id);
    if (!view) throw new Error(`no MCP server "${id}" is configured`);
    const written = registry.heldDefinition(id) ?? view.server;
    const server = await resolveInputs(written, deps);
    const url = server.launch.url ?? '';
    log.info(`${id}: signing in to ${displayUrl(url)}`);
    const completed = await vscode.window.withProgress({
      location: vscode.ProgressLocation.Notification,
      title: plainText(`Signing in to "${id}"`),
      cancellable: true,
    }, async (progress, token) => {
      const { scope, resourceMetadataUrl } = (await deps.providers()).signInChallenge(url);
      const cancel = new AbortController();
      const subscription = token.onCancellationRequested(() => cancel.abort());
      try {
        progress.report({ message: 'waiting for the browser…' });
        await signIn({
          server, store, clientName: deps.clientName, timeoutMs: SIGN_IN_TIMEOUT_MS, signal: cancel.signal,
          scope, resourceMetadataUrl,
          open: (authorizationUrl) => browser(authorizationUrl, server, authorizationUrl.searchParams.get('redirect_uri') ?? ''),
        });
        return true;
      } catch (error) {
        // Cancelled in the notification, or "Cancel" on the question before the browser opens: nothing to report.
        if (cancel.signal.aborted || (error instanceof RedirectError && error.cancelled)) return false;
        throw error;
      } finally {
        subscription.dispose();
      }
    });
    if (!completed) {
      log.info(`${id}: sign-in cancelled`);
      return registry.get(id)?.state.kind;
    }
    log.info(`${id}: signed in; starting`);
    await (ServerState.isActive(registry.get(id)?.state ?? ServerState.stopped) ? registry.restart(id) : registry.start(id));
    return registry.get(id)?.state.kind;
  };

  const signOutOf = async (id: string): Promise<ServerState['kind'] | undefined> => {
    const view = registry.get(id);
    if (!view) throw new Error(`no MCP server "${id}" is configured`);
    const url = view.server.launch.url;
    if (url === undefined || (view.server.launch.type !== 'http' && view.server.launch.type !== 'sse')) throw new Error(`"${id}" is not an http or sse server`);
    const asked = `Sign out of "${id}"?`;
    if (!await confirm(asked, `Its tokens and registered client are forgotten; it needs a new sign-in before it answers again (${displayUrl(url)}).`, 'Sign Out')) {
      return view.state.kind;
    }
    await store.clear(url);
    log.info(`${id}: signed out of ${displayUrl(url)} (tokens and registered client forgotten)`);
    // A running server reconnects without credentials, which shows it as needing a sign-in.
    if (ServerState.isActive(view.state)) await registry.restart(id);
    void notifyInfo(`Signed out of "${id}".`);
    return registry.get(id)?.state.kind;
  };

  const guarded = (name: string, run: (id: string) => Promise<ServerState['kind'] | undefined>) =>
    registerReportingCommand(name, async (target?: unknown) => {
      const id = serverIdOf(target) ?? await pick(registry, name === SIGN_IN_COMMANDS.signIn);
      return id === undefined ? undefined : await run(id);
    }, deps);

  const disposables = [
    guarded(SIGN_IN_COMMANDS.signIn, signInTo),
    guarded(SIGN_IN_COMMANDS.signOut, signOutOf),
  ];
  if (deps.testing) {
    disposables.push(
      vscode.commands.registerCommand(SIGN_IN_COMMANDS.scriptBrowser, (script: boolean) => { scripted = script ? [] : undefined; }),
      vscode.commands.registerCommand(SIGN_IN_COMMANDS.openedPages, () => [...(scripted ?? [])]),
    );
  }
  return vscode.Disposable.from(...disposables);
}

/** Names the site before opening it: the person sees where their credentials will go. */
async function confirmAndOpen(authorizationUrl: URL, server: EffectiveServer, redirect: string): Promise<boolean> {
  const site = authorizationUrl.origin;
  const open = 'Open Browser';
  const answer = await vscode.window.showInformationMessage(
    `Sign in to "${server.id}" at ${site}?`,
    {
      modal: true,
      detail: `Your browser will open ${site}, the sign-in page for ${displayUrl(server.launch.url ?? '')}. ` +
        `After you approve there, the browser comes back to VS Code at ${redirect}.`,
    },
    open,
  );
  if (answer !== open) return false;
  return await vscode.env.openExternal(vscode.Uri.parse(authorizationUrl.href, true));
}

async function resolveInputs(server: EffectiveServer, deps: SignInDeps): Promise<EffectiveServer> {
  const ids = inputsNeededBy(server);
  if (ids.length === 0) return server;
  await deps.inputs.ensure(ids, { serverId: server.id, owner: inputOwnerOf(server), interactive: true, definitionOf: (id) => deps.definitionOf(server, id) });
  return withInputValues(server, await deps.inputs.values(ids, inputOwnerOf(server)));
}

async function pick(registry: ServerRegistry, signingIn: boolean): Promise<string | undefined> {
  const remote = registry.list().filter((view) => view.server.launch.type === 'http' || view.server.launch.type === 'sse');
  const candidates = signingIn ? remote.filter((view) => view.state.kind === 'needsSignIn') : remote;
  if (candidates.length === 0) {
    void notifyInfo(signingIn ? 'No MCP server needs a sign-in.' : 'No remote MCP server is configured.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(candidates.map((view) => ({
    label: view.id, description: `${displayUrl(view.server.launch.url ?? '')} · ${ServerState.label(view.state)}`, id: view.id,
  })), { placeHolder: signingIn ? 'Sign in to which MCP server?' : 'Sign out of which MCP server?' });
  return picked?.id;
}

function serverIdOf(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  const serverId = (target as { data?: { serverId?: unknown } } | undefined)?.data?.serverId;
  return typeof serverId === 'string' ? serverId : undefined;
}
