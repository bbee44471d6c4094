// Where a server's OAuth credentials live: one JSON record per server URL in a secret store (VS Code's
// SecretStorage in the extension, memory in the CLI). Reads are cached (the SDK asks for the tokens
// before every request); writes go through at once. The record holds tokens, the registered client
// and the discovery result, never a log line: callers must not print it.
import type { OAuthClientInformationMixed, OAuthDiscoveryState, OAuthTokens } from '../sdk';

/** The SecretStorage shape (`vscode.SecretStorage` satisfies it). */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

export interface StoredCredentials {
  tokens?: OAuthTokens;
  /** When `tokens` were saved (ms since the epoch), to tell the age of an access token. */
  savedAt?: number;
  /** A client registered dynamically (or bound to its issuer by the SDK). */
  client?: OAuthClientInformationMixed;
  discovery?: OAuthDiscoveryState;
  /**
   * The origins besides the server's that the person's last sign-in sent requests to (its authorization
   * server, token endpoint…): a start without the person may reach these and no other (oauthReach.ts).
   */
  approvedOrigins?: string[];
}

const KEY_PREFIX = 'switchboard.oauth:';

/** The credentials of every server, keyed by the server's URL without query or fragment. */
export class OAuthCredentialStore {
  private readonly cache = new Map<string, Promise<StoredCredentials>>();
  /** Writes to one key run one after another, so a save never overtakes an earlier one. */
  private readonly queues = new Map<string, Promise<void>>();
  /** Keys known (from a load or a save) to hold tokens: lets a view ask synchronously. */
  private readonly withTokens = new Set<string>();

  constructor(private readonly secrets: SecretStore, private readonly now: () => number = Date.now) {}

  /** The storage key of a server URL: origin and path, no user info, query or fragment (these may carry secrets). */
  static keyOf(serverUrl: string | URL): string {
    const url = new URL(String(serverUrl));
    return `${KEY_PREFIX}${url.protocol}//${url.host}${url.pathname}`;
  }

  /** What is stored for the server (an empty record when nothing is, or when the stored text is unreadable). */
  load(serverUrl: string | URL): Promise<StoredCredentials> {
    const key = OAuthCredentialStore.keyOf(serverUrl);
    let cached = this.cache.get(key);
    if (!cached) {
      cached = Promise.resolve(this.secrets.get(key)).then(parseRecord, () => ({})).then((record) => {
        this.note(key, record);
        return record;
      });
      this.cache.set(key, cached);
    }
    return cached.then((record) => ({ ...record }));
  }

  /** Applies `change` to the stored record and writes it back. */
  update(serverUrl: string | URL, change: (record: StoredCredentials) => StoredCredentials): Promise<void> {
    const key = OAuthCredentialStore.keyOf(serverUrl);
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(async () => {
      const record = change(await this.load(serverUrl));
      this.cache.set(key, Promise.resolve(record));
      this.note(key, record);
      if (isEmpty(record)) await this.secrets.delete(key);
      else await this.secrets.store(key, JSON.stringify(record));
    });
    this.queues.set(key, next.catch(() => undefined));
    return next;
  }

  /** Saves new tokens (with the time they arrived). */
  saveTokens(serverUrl: string | URL, tokens: OAuthTokens): Promise<void> {
    return this.update(serverUrl, (record) => ({ ...record, tokens, savedAt: this.now() }));
  }

  /** Forgets everything about the server: tokens, registered client, discovery (Sign out). */
  clear(serverUrl: string | URL): Promise<void> {
    return this.update(serverUrl, () => ({}));
  }

  /** Whether tokens are known to be stored for the server, without waiting (false until its record was read). */
  isSignedIn(serverUrl: string | URL): boolean {
    return this.withTokens.has(OAuthCredentialStore.keyOf(serverUrl));
  }

  private note(key: string, record: StoredCredentials): void {
    if (record.tokens !== undefined) this.withTokens.add(key);
    else this.withTokens.delete(key);
  }

  /** Whether tokens are stored for the server. */
  async hasTokens(serverUrl: string | URL): Promise<boolean> {
    return (await this.load(serverUrl)).tokens !== undefined;
  }
}

function parseRecord(text: string | undefined): StoredCredentials {
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const record = value as Record<string, unknown>;
    const result: StoredCredentials = {};
    if (isObject(record.tokens) && typeof record.tokens.access_token === 'string') result.tokens = record.tokens as unknown as OAuthTokens;
    if (typeof record.savedAt === 'number') result.savedAt = record.savedAt;
    if (isObject(record.client) && typeof record.client.client_id === 'string') result.client = record.client as unknown as OAuthClientInformationMixed;
    if (isObject(record.discovery) && typeof record.discovery.authorizationServerUrl === 'string') result.discovery = record.discovery as unknown as OAuthDiscoveryState;
    if (Array.isArray(record.approvedOrigins) && record.approvedOrigins.every((origin) => typeof origin === 'string')) result.approvedOrigins = record.approvedOrigins as string[];
    return result;
  } catch {
    // Unreadable (written by something else, or truncated): treated as nothing stored; signing in again rewrites it.
    return {};
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmpty(record: StoredCredentials): boolean {
  return record.tokens === undefined && record.client === undefined && record.discovery === undefined && record.approvedOrigins === undefined;
}

/** A SecretStore in memory, for one-shot processes (the CLI) and tests. */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }

  store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }

  /** The keys stored (for tests). */
  keys(): string[] {
    return [...this.values.keys()];
  }
}
