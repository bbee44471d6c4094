// The shapes of MCP server configuration as read from every scope. Pure data: no I/O here.

/**
 * Where a server definition came from, highest precedence first (see SCOPE_ORDER). `managed`: the
 * servers an administrator's policy file provides, above every scope a person writes.
 */
export type Scope = 'managed' | 'local' | 'project' | 'user' | 'plugin';

/** Precedence as data: a lower index wins. */
export const SCOPE_ORDER: readonly Scope[] = ['managed', 'local', 'project', 'user', 'plugin'];

/** Transports after alias normalisation (`streamable-http`/`streamableHttp` → `http`). */
export type TransportKind = 'stdio' | 'http' | 'sse' | 'ws';

/** A position in a config file: 1-based line and column, plus the 0-based offset/length of the range. */
export interface SourceRange {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  offset: number;
  length: number;
}

export type ProblemSeverity = 'error' | 'warning';

/** One thing wrong (or worth a warning) in a config file, at an exact position. */
export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: ProblemSeverity;
  /** Stable machine id, e.g. `syntax`, `unknown-type`, `unresolved-variable`. */
  code: string;
  message: string;
  /** A replacement for the problem's range that fixes it (a typo's "did you mean"), offered as a Quick Fix. */
  fix?: ConfigFix;
}

/** A replacement for a problem's range (a key or a value, quotes included), offered as a Quick Fix. */
export interface ConfigFix {
  /** What the Quick Fix says it does: `Rename to "command"`. */
  readonly title: string;
  /** The JSON text that replaces the problem's range. */
  readonly text: string;
}

/** A VS Code style `inputs` entry (`promptString` / `pickString`). */
export interface InputDefinition {
  id: string;
  type: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: string[];
  source: SourceRange;
}

/** The launch-relevant part of a server entry, after variable expansion. This is what the fingerprint covers. */
export interface LaunchDefinition {
  type: TransportKind;
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  /** The `envFile` as written (variables expanded); a relative path is taken from the server's folder. */
  envFile?: string;
  /**
   * What the env file defined when the configuration was read (project scope only): each variable's
   * name with a salted digest of its value, never the value. Absent when it was not (or could not be)
   * read; the launch then refuses to use the file for a project server.
   */
  envFileVars?: Record<string, string>;
  /** OAuth settings of a remote server (`oauth` in the entry); absent = discover everything from the server. */
  oauth?: OAuthSettings;
  /**
   * The package runner configuration (`.npmrc`, `.yarnrc.yml`, `bunfig.toml`, `uv.toml` …) found
   * between the working directory and its workspace folder when the configuration was read (see
   * runnerConfig.ts); absent when none was found. Digests and setting names only, never a value.
   */
  runnerConfig?: RunnerConfigFile[];
  /**
   * The entry's `roots`: `false` declares no roots capability (the server keeps the folders its
   * arguments name); absolute folders are the roots it gets instead of the workspace folders. Absent:
   * the workspace folders. Covered by the fingerprint: which folders a server may work on is part of it.
   */
  roots?: false | string[];
  /**
   * What `${NAME}` / `${env:NAME}` brought in from the environment (name → value), absent when nothing:
   * secrets like env values, masked wherever the launch is shown and never stored. Not covered by the
   * fingerprint on its own (the expanded fields are).
   */
  expandedVars?: Record<string, string>;
}

/** One package runner configuration file a launch reads from the workspace. */
export interface RunnerConfigFile {
  /** Absolute path. */
  file: string;
  /** Salted digest of what counts in it (the whole text, or the one field a runner acts on). */
  digest: string;
  /** The names of the settings it makes, in file order (never their values). */
  settings: string[];
  /** It exists but could not be read (too large, no permission): the runner may still read it. */
  unreadable?: boolean;
}

/**
 * A remote server's `oauth` entry. Everything is optional: without it the client discovers the
 * authorization server, registers itself dynamically and signs in with the authorization code flow.
 */
export interface OAuthSettings {
  /** A client registered in advance with the authorization server (skips dynamic registration). */
  clientId?: string;
  /** Its secret, for confidential clients; write it as `${input:…}` so it lives in SecretStorage. */
  clientSecret?: string;
  /** Scopes to ask for when neither the server's 401 nor its metadata names any. */
  scopes?: string[];
  /** Fixed port of the loopback redirect (a pre-registered client's redirect URI names one). */
  callbackPort?: number;
  /** An https URL of a client ID metadata document (SEP-991), used when the authorization server supports it. */
  clientMetadataUrl?: string;
  /** `authorization_code` (default: a person signs in) or `client_credentials` (machine to machine). */
  grantType?: 'authorization_code' | 'client_credentials';
}

/**
 * `alwaysLoad`: `true` gives the model all of the server's tools in full with every request, a list
 * only the tools it names (`*` matches any run of characters, as in `allowedTools`); the others are
 * found through the catalog search when the catalog is large.
 */
export type AlwaysLoad = boolean | string[];

/** One server entry as written in one file, validated and expanded. */
export interface ServerEntry {
  name: string;
  scope: Scope;
  /** Absolute path of the workspace folder the entry belongs to (local and project scopes). */
  folder?: string;
  launch: LaunchDefinition;
  /** Startup timeout in milliseconds, when the entry sets one. */
  timeout?: number;
  disabled: boolean;
  alwaysLoad: AlwaysLoad;
  allowedTools?: string[];
  disabledTools?: string[];
  /** `${input:id}` references still to be supplied (left unexpanded in `launch`). */
  needsInput: string[];
  /**
   * The workspace folder up to which package runner configuration is looked for (the one holding the
   * working directory), when the launch starts a package runner there; the launch checks it again.
   */
  runnerConfigRoot?: string;
  /**
   * Set on a local, user or plugin server whose launch reads files of a workspace folder (its env file,
   * or package runner configuration found there): that folder. Those files are repository content, so
   * such a server needs trust like a project server.
   */
  repositoryFolder?: string;
  /** The range of the entry's key (`"name": {…}`) in its file. */
  source: SourceRange;
  /**
   * Set for a server a skill brings (the `mcpServers` of a SKILL.md's frontmatter): the skill's name,
   * the server's name inside it, and the SKILL.md. Such a server starts only when its skill is used.
   */
  skill?: { name: string; server: string; file: string };
}

/** The raw text of one config file, or why there is none. */
export type ConfigRead =
  | { kind: 'text'; text: string }
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'tooLarge'; size: number }
  | { kind: 'unreadable'; message: string };

/** Values available to `${…}` expansion for one layer. */
export interface VariableContext {
  env: Readonly<Record<string, string | undefined>>;
  userHome: string;
  workspaceFolder?: string;
  extensionPath?: string;
}

/** Describes one file (or virtual file) that contributes a layer. */
export interface LayerSpec {
  scope: Scope;
  /** Absolute path, or a virtual name such as `api:<source>` for servers registered through the API. */
  file: string;
  folder?: string;
  /** Where the servers object lives inside the document: `[]` for a `.mcp.json`, `['contributes']` for an extension's package.json. */
  root?: string[];
  /** Display label for plugin sources (extension id, API source). */
  label?: string;
  /** Text supplied directly instead of read from `file` (servers registered through the API). */
  inline?: string;
  /** `skill`: the file is a SKILL.md whose frontmatter's `mcpServers` holds the servers (see core/skills). */
  format?: 'skill';
  vars: VariableContext;
}

/** The result of reading one layer. Never throws; problems say what went wrong. */
export interface Layer {
  spec: LayerSpec;
  servers: ServerEntry[];
  inputs: InputDefinition[];
  problems: ConfigProblem[];
  /** False when the document could not be read as a config at all (syntax error, not an object, unreadable). */
  usable: boolean;
}

/** A server that is in effect after merging all layers. */
export interface EffectiveServer extends ServerEntry {
  /** Unique id: the name, or `<folder basename>/<name>` when two workspace folders define the same name. */
  id: string;
  fingerprint: string;
  needsTrust: boolean;
}

/** An entry that lost to a higher-precedence one of the same name. */
export interface ShadowedServer {
  name: string;
  scope: Scope;
  folder?: string;
  source: SourceRange;
  shadowedBy: { id: string; scope: Scope; file: string };
}

/** The merged view of every layer. */
export interface MergedConfig {
  servers: EffectiveServer[];
  shadowed: ShadowedServer[];
  problems: ConfigProblem[];
  inputs: InputDefinition[];
}
