// The MCP registry's shapes, as its API serves them (`GET /v0/servers`: a list of `{ server, _meta }`
// with `metadata.nextCursor`), and the `server.json` fields we translate. Field names follow the
// registry's published schema; everything is optional here because a response is read leniently and a
// field we need but lack becomes a reason, never a guess. Pure data.

/** An `Input` of server.json: a value, or how to ask a person for one. */
export interface RegistryInput {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: string;
  value?: string;
  default?: string;
  placeholder?: string;
  choices?: string[];
  /** Values for the `{curly}` names in `value`. */
  variables?: Record<string, RegistryInput>;
}

/** An environment variable or a header (server.json `KeyValueInput`). */
export interface RegistryKeyValue extends RegistryInput {
  name: string;
}

/** A command-line argument (`positional` with `value`/`valueHint`, or `named` with `name`). */
export interface RegistryArgument extends RegistryInput {
  type: 'positional' | 'named';
  name?: string;
  valueHint?: string;
  isRepeated?: boolean;
}

/** A transport of a package (`stdio`, `streamable-http`, `sse`) or of a remote. */
export interface RegistryTransport {
  type: string;
  url?: string;
  headers?: RegistryKeyValue[];
  variables?: Record<string, RegistryInput>;
}

/** A package people run locally: npm, PyPI, OCI (others are listed, not translated). */
export interface RegistryPackage {
  registryType: string;
  identifier: string;
  version?: string;
  registryBaseUrl?: string;
  runtimeHint?: string;
  runtimeArguments?: RegistryArgument[];
  packageArguments?: RegistryArgument[];
  environmentVariables?: RegistryKeyValue[];
  transport?: RegistryTransport;
}

/** One server of the registry (server.json's `ServerDetail`). */
export interface RegistryServer {
  name: string;
  description: string;
  version: string;
  title?: string;
  websiteUrl?: string;
  repository?: { url: string; source?: string; subfolder?: string };
  packages: RegistryPackage[];
  remotes: RegistryTransport[];
  /** From the registry's `_meta`: active, deprecated or deleted. */
  status?: string;
}

/** One page of a search. */
export interface RegistryPage {
  servers: RegistryServer[];
  nextCursor?: string;
  /** Entries of the response that could not be read, with why (the rest are still shown). */
  problems: string[];
}
