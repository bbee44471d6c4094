// The values of `${input:id}` references: asked once per workspace, configuration file and id (an input
// box, hidden for `"password": true`, or a pick list), kept in VS Code's SecretStorage under a key made
// of this workspace's identity, the file (inputKeys.ts) and the id, and read back at every launch. One
// prompt is shown at a time, and servers of one file that need the same id share its prompt:
// cancelling fails them all once, nothing asks again until a server is started again.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { InputDefinition } from '../../core/config/types';
import { inputIndexKeyOf, inputKeyOf, parseInputIndex, type InputOwner, type StoredInput } from './inputKeys';

/** What a prompt is about. */
export interface InputPromptRequest {
  id: string;
  /** The `inputs` entry declaring it; undefined for an undeclared id (asked as plain text). */
  definition: InputDefinition | undefined;
  /** The server whose start asked first. */
  serverId: string;
}

/** Asks a person for one value; undefined when they cancelled. */
export interface InputPrompt {
  ask(request: InputPromptRequest, token: vscode.CancellationToken): Promise<string | undefined>;
}

/** The part of vscode.SecretStorage this needs. */
export interface SecretStore {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

/** The start that wants the values. */
export interface InputRequester {
  serverId: string;
  /** The file whose servers share the answers (see inputOwnerOf). */
  owner: InputOwner;
  /** The `inputs` entry of an id, as the server's own file (or the merged config) declares it. */
  definitionOf(id: string): InputDefinition | undefined;
  /** False for an automatic restart: missing values then fail the start instead of asking. */
  interactive: boolean;
  signal?: AbortSignal;
}

/** The error of a start that lacks a value. */
export class InputNotProvidedError extends Error {
  constructor(readonly inputId: string, detail = '') {
    super(`input ${inputId} was not provided${detail}`);
    this.name = 'InputNotProvidedError';
  }
}

/** The `${input:…}` values of one workspace. */
export class WorkspaceInputs {
  private prompt: InputPrompt;
  /** Prompts shown or waiting, by key: every start that needs the id of that file waits on the same one. */
  private readonly asking = new Map<string, SharedPrompt>();
  /** Prompts run one after another: a second input box would close the first. */
  private queue: Promise<void> = Promise.resolve();
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly secrets: SecretStore, readonly workspaceKey: string, prompt: InputPrompt = new VscodeInputPrompt()) {
    this.prompt = prompt;
  }

  /** Replaces how values are asked for (the extension-host tests answer through this); returns the previous prompt. */
  usePrompt(prompt: InputPrompt): InputPrompt {
    const previous = this.prompt;
    this.prompt = prompt;
    return previous;
  }

  /** Makes sure every id has a stored value, asking for the missing ones. Rejects with InputNotProvidedError. */
  async ensure(ids: readonly string[], requester: InputRequester): Promise<void> {
    for (const id of ids) {
      requester.signal?.throwIfAborted();
      if (await this.secrets.get(this.keyOf(requester.owner, id)) !== undefined) continue;
      if (!requester.interactive) throw new InputNotProvidedError(id, ' (it is asked for when the server is started by hand)');
      const value = await this.ask(id, requester);
      if (value === undefined) throw new InputNotProvidedError(id);
    }
  }

  /** The stored values of `ids` for this file's servers; rejects with InputNotProvidedError for the first one without a value. */
  async values(ids: readonly string[], owner: InputOwner): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const id of ids) {
      const value = await this.secrets.get(this.keyOf(owner, id));
      if (value === undefined) throw new InputNotProvidedError(id);
      values[id] = value;
    }
    return values;
  }

  /** Whether a value is stored for `id` in this workspace (for `owner`'s servers, or for any file's when not given). */
  async has(id: string, owner?: InputOwner): Promise<boolean> {
    if (owner !== undefined) return await this.secrets.get(this.keyOf(owner, id)) !== undefined;
    for (const entry of await this.storedInputs()) {
      if (entry.id === id && await this.secrets.get(entry.key) !== undefined) return true;
    }
    return false;
  }

  /** Deletes every stored value of this workspace; returns the ids that had one. */
  clear(): Promise<string[]> {
    return this.write(async () => {
      const cleared: string[] = [];
      for (const entry of await this.storedInputs()) {
        if (await this.secrets.get(entry.key) !== undefined && !cleared.includes(entry.id)) cleared.push(entry.id);
        await this.secrets.delete(entry.key);
      }
      await this.secrets.delete(this.indexKey);
      return cleared;
    });
  }

  /** The SecretStorage key of an id asked for by `owner`'s servers. */
  keyOf(owner: InputOwner, id: string): string {
    return inputKeyOf(this.workspaceKey, owner, id);
  }

  private get indexKey(): string {
    return inputIndexKeyOf(this.workspaceKey);
  }

  private ask(id: string, requester: InputRequester): Promise<string | undefined> {
    const key = this.keyOf(requester.owner, id);
    let shared = this.asking.get(key);
    if (!shared) {
      const created = new SharedPrompt();
      shared = created;
      this.asking.set(key, created);
      const request: InputPromptRequest = { id, definition: requester.definitionOf(id), serverId: requester.serverId };
      const turn = this.queue.then(() => this.runPrompt(created, request, key));
      this.queue = turn.then(() => undefined, () => undefined);
      void turn.finally(() => { if (this.asking.get(key) === created) this.asking.delete(key); });
    }
    return shared.wait(requester.signal);
  }

  private async runPrompt(shared: SharedPrompt, request: InputPromptRequest, key: string): Promise<void> {
    if (shared.abandoned) { shared.settle(undefined); return; }
    try {
      const value = await this.prompt.ask(request, shared.cancellation.token);
      if (value !== undefined && !shared.cancellation.token.isCancellationRequested) await this.store(request.id, key, value);
      shared.settle(shared.cancellation.token.isCancellationRequested ? undefined : value);
    } catch (error) {
      shared.fail(error);
    } finally {
      shared.cancellation.dispose();
    }
  }

  /** Keeps a value a person already gave (an imported secret moved into an input) for `owner`'s servers, as if they had been asked. */
  remember(id: string, value: string, owner: InputOwner): Promise<void> {
    return this.store(id, this.keyOf(owner, id), value);
  }

  private store(id: string, key: string, value: string): Promise<void> {
    return this.write(async () => {
      await this.secrets.store(key, value);
      const stored = await this.storedInputs();
      if (!stored.some((entry) => entry.key === key)) await this.secrets.store(this.indexKey, JSON.stringify([...stored, { id, key }]));
    });
  }

  /** The answers this workspace stored (SecretStorage cannot list its keys, so an index is kept beside them). */
  private async storedInputs(): Promise<StoredInput[]> {
    return parseInputIndex(await this.secrets.get(this.indexKey), this.workspaceKey);
  }

  private write<T>(work: () => Promise<T>): Promise<T> {
    const next = this.writes.then(work);
    this.writes = next.then(() => undefined, () => undefined);
    return next;
  }
}

/** One prompt and the starts waiting on it; cancelled when every one of them gave up. */
class SharedPrompt {
  readonly cancellation = new vscode.CancellationTokenSource();
  private waiters = 0;
  private result: Promise<string | undefined>;
  private resolve!: (value: string | undefined) => void;
  private reject!: (error: unknown) => void;

  constructor() {
    this.result = new Promise((resolve, reject) => { this.resolve = resolve; this.reject = reject; });
  }

  get abandoned(): boolean {
    return this.cancellation.token.isCancellationRequested;
  }

  wait(signal: AbortSignal | undefined): Promise<string | undefined> {
    this.waiters++;
    if (!signal) return this.result;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (--this.waiters === 0) this.cancellation.cancel();
        reject(signal.reason);
      };
      if (signal.aborted) { onAbort(); return; }
      signal.addEventListener('abort', onAbort, { once: true });
      this.result.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  settle(value: string | undefined): void {
    this.resolve(value);
  }

  fail(error: unknown): void {
    this.reject(error);
  }
}

/** The real prompt: an input box (hidden text for passwords) or a quick pick, kept open when focus moves away. */
export class VscodeInputPrompt implements InputPrompt {
  async ask({ id, definition, serverId }: InputPromptRequest, token: vscode.CancellationToken): Promise<string | undefined> {
    const title = `MCP Switchboard: ${definition?.description ?? `value of \${input:${id}}`}`;
    const where = `Server "${serverId}" needs \${input:${id}}. It is kept in this machine's secret storage for this workspace and this server's configuration file (MCP Switchboard: Clear Stored Inputs forgets it).`;
    if (definition?.type === 'pickString' && definition.options?.length) {
      const items = definition.options.map((option) => ({ label: option, picked: option === definition.default }));
      const ordered = [...items.filter((item) => item.picked), ...items.filter((item) => !item.picked)];
      const picked = await vscode.window.showQuickPick(ordered, { title, placeHolder: where, ignoreFocusOut: true }, token);
      return picked?.label;
    }
    const password = definition?.password === true;
    return vscode.window.showInputBox({
      title,
      prompt: where,
      password,
      ignoreFocusOut: true,
      // A default is shown for plain values only: a prefilled password box would reveal nothing, and a default secret is no secret.
      value: password ? undefined : definition?.default,
    }, token);
  }
}

/** A stable identity of the open workspace: its .code-workspace file, else its folders, else "no folder"; hashed. */
export function workspaceKeyOf(workspaceFile: vscode.Uri | undefined, folders: readonly vscode.Uri[]): string {
  const identity = workspaceFile && workspaceFile.scheme !== 'untitled'
    ? `workspace:${workspaceFile.toString()}`
    : folders.length > 0 ? `folders:${folders.map((uri) => uri.toString()).sort().join('\n')}` : 'no-folder';
  return createHash('sha256').update(identity).digest('hex').slice(0, 16);
}
