// server.json → our entry. Each package (npm, PyPI, OCI) and each remote of a registry server is one way
// to install it; each becomes a `.mcp.json` entry with its whole command line or URL. A value the person
// must give (a required or secret variable, a required argument, a `{name}` of a URL or value) becomes
// an `${input:…}` reference declared as an input (a password input when secret), asked once and kept in
// secret storage — never written into the file. What cannot be translated is said with the reason.
import { secretInputId } from '../import/plan';
import type { ImportedEntry, ImportedInput } from '../import/types';
import { serverNameProblem, titleProblem } from './serverName';
import type { RegistryArgument, RegistryInput, RegistryKeyValue, RegistryPackage, RegistryServer, RegistryTransport } from './types';

/** The runner of each package type we can start, when the package names none. */
const DEFAULT_RUNTIME: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker' };

/** One way to install a server. */
export interface InstallOption {
  /** For people: `npm @scope/pkg@1.2.0 (stdio)`, `remote streamable-http https://…`. */
  label: string;
  kind: 'package' | 'remote';
  /** The entry to write; absent when this way cannot be translated (`reason` says why). */
  entry?: ImportedEntry;
  reason?: string;
  /** The inputs the entry references, to declare in the file. */
  inputs: ImportedInput[];
  /** What the person gives or has: "API_KEY (secret, required)", "needs npx". */
  needs: string[];
  /** Optional settings left out of the entry (no value, no default), named so the person can add them. */
  leftOut: string[];
}

/** A registry server as the gallery shows it. */
export interface GalleryItem {
  /** The entry name it is installed under: the part of the registry name after its `/`. */
  name: string;
  /** The registry's name, e.g. `io.github.user/weather`. */
  registryName: string;
  /** The name's namespace (before `/`): who published it, as the registry verified. */
  publisher: string;
  title?: string;
  description: string;
  version: string;
  repository?: string;
  websiteUrl?: string;
  status?: string;
  /** Transports over all ways, e.g. `stdio`, `streamable-http`. */
  transports: string[];
  options: InstallOption[];
}

/** The gallery's view of one registry server, every way to install it translated. */
export function galleryItem(server: RegistryServer): GalleryItem {
  const slash = server.name.indexOf('/');
  const raw = slash < 0 ? server.name : server.name.slice(slash + 1);
  const name = entryName(raw);
  // A name or title that could hide or fake text makes every way of installing it refused, with why.
  const refusal = serverNameProblem(raw) ?? (slash < 0 ? undefined : serverNameProblem(server.name.slice(0, slash))) ?? (server.title !== undefined ? titleProblem(server.title) : undefined);
  const options = refusal !== undefined
    ? [...server.packages.map((pkg) => `${pkg.registryType} ${pkg.identifier}`), ...server.remotes.map((remote) => `remote ${remote.type}`)]
      .map((label): InstallOption => ({ label, kind: label.startsWith('remote ') ? 'remote' : 'package', reason: `not installable: ${refusal}`, inputs: [], needs: [], leftOut: [] }))
    : [...server.packages.map((pkg) => packageOption(name, pkg)), ...server.remotes.map((remote) => remoteOption(name, remote))];
  const transports = [...new Set([...server.packages.map((pkg) => pkg.transport?.type ?? 'stdio'), ...server.remotes.map((remote) => remote.type)])];
  return {
    name, registryName: server.name, publisher: slash < 0 ? '' : server.name.slice(0, slash),
    ...(server.title !== undefined ? { title: server.title } : {}),
    description: server.description, version: server.version,
    ...(server.repository !== undefined ? { repository: server.repository.url + (server.repository.subfolder ? ` (${server.repository.subfolder})` : '') } : {}),
    ...(server.websiteUrl !== undefined ? { websiteUrl: server.websiteUrl } : {}),
    ...(server.status !== undefined ? { status: server.status } : {}),
    transports, options,
  };
}

/** A registry name part as an entry name: letters, digits, `.`, `_`, `-`. */
function entryName(raw: string): string {
  return raw.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'server';
}

/** Collects the inputs, needs and left-out settings of one way while its entry is built. */
class Asks {
  readonly inputs: ImportedInput[] = [];
  readonly needs: string[] = [];
  readonly leftOut: string[] = [];

  constructor(private readonly server: string) {}

  /** An `${input:…}` for `key`, declared once. */
  reference(key: string, spec: RegistryInput, label: string): string {
    const id = secretInputId(this.server, key);
    if (!this.inputs.some((input) => input.id === id)) {
      const secret = spec.isSecret === true;
      this.inputs.push({
        id, type: spec.choices !== undefined && spec.choices.length > 0 ? 'pickString' : 'promptString',
        description: spec.description ?? label,
        ...(secret ? { password: true } : {}),
        ...(spec.default !== undefined ? { default: spec.default } : {}),
        ...(spec.choices !== undefined && spec.choices.length > 0 ? { options: spec.choices } : {}),
      });
      this.needs.push(`${label} (${[secret ? 'secret' : undefined, spec.isRequired === true ? 'required' : 'asked'].filter(Boolean).join(', ')})`);
    }
    return `\${input:${id}}`;
  }

  /**
   * The value of an input: its fixed `value` (with `{name}`s of its variables asked), the person's answer
   * when it is required or secret, its default, or undefined (optional, left out).
   */
  value(key: string, spec: RegistryInput & { variables?: Record<string, RegistryInput> }, label: string): string | undefined {
    if (spec.value !== undefined) return this.substitute(spec.value, spec.variables ?? {}, key);
    if (spec.isRequired === true || spec.isSecret === true) return this.reference(key, spec, label);
    if (spec.default !== undefined) return spec.default;
    this.leftOut.push(`${label}${spec.description ? `: ${spec.description}` : ''}`);
    return undefined;
  }

  /** `{name}` in a value or URL template: asked when `variables` defines it, kept as written otherwise. */
  substitute(template: string, variables: Record<string, RegistryInput>, owner: string): string {
    return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
      const spec = Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : undefined;
      if (spec === undefined) return whole;
      if (spec.value !== undefined) return spec.value;
      if (spec.default !== undefined && spec.isRequired !== true && spec.isSecret !== true) return spec.default;
      return this.reference(`${owner}-${name}`, spec, `${name} of ${owner}`);
    });
  }
}

function packageOption(server: string, pkg: RegistryPackage): InstallOption {
  const transport = pkg.transport?.type ?? 'stdio';
  const label = `${pkg.registryType} ${pkg.identifier}${pkg.version ? `@${pkg.version}` : ''} (${transport})`;
  const asks = new Asks(server);
  const runtime = pkg.runtimeHint ?? DEFAULT_RUNTIME[pkg.registryType];
  const refuse = (reason: string): InstallOption => ({ label, kind: 'package', reason, inputs: [], needs: [], leftOut: [] });
  if (runtime === undefined) return refuse(`a ${pkg.registryType} package cannot be installed from the gallery (npm, pypi and oci can); see the server's repository for how to run it`);
  if (transport !== 'stdio') return refuse(`this package serves ${transport} on a port you start yourself; install one of its remotes or run it and add its URL`);
  const env: Record<string, string> = {};
  for (const variable of pkg.environmentVariables ?? []) {
    const value = asks.value(variable.name, variable, variable.name);
    if (value !== undefined) env[variable.name] = value;
  }
  const runtimeArgs = argumentsOf(asks, pkg.runtimeArguments ?? [], 'runtime argument');
  const packageArgs = argumentsOf(asks, pkg.packageArguments ?? [], 'argument');
  let args: string[];
  switch (pkg.registryType) {
    case 'npm': args = [...(runtimeArgs.length > 0 ? runtimeArgs : runtime === 'npx' ? ['-y'] : []), pkg.version ? `${pkg.identifier}@${pkg.version}` : pkg.identifier, ...packageArgs]; break;
    case 'pypi': args = [...runtimeArgs, pkg.version ? `${pkg.identifier}==${pkg.version}` : pkg.identifier, ...packageArgs]; break;
    case 'oci': {
      // The container sees only the variables passed to it by name; their values stay in `env`.
      const image = /[:@][^/]*$/.test(pkg.identifier) || !pkg.version ? pkg.identifier : `${pkg.identifier}:${pkg.version}`;
      const passed = Object.keys(env).flatMap((name) => ['-e', name]);
      args = [...(runtimeArgs.length > 0 ? runtimeArgs : ['run', '-i', '--rm']), ...passed, image, ...packageArgs];
      break;
    }
    default: args = [...runtimeArgs, pkg.identifier, ...packageArgs];
  }
  asks.needs.unshift(`${runtime} on the PATH`);
  const entry: ImportedEntry = { type: 'stdio', command: runtime, args, ...(Object.keys(env).length > 0 ? { env } : {}) };
  return { label, kind: 'package', entry, inputs: asks.inputs, needs: asks.needs, leftOut: asks.leftOut };
}

/** The words of a list of arguments; a named one is `--flag value` (or `--flag` alone). */
function argumentsOf(asks: Asks, list: readonly RegistryArgument[], label: string): string[] {
  return list.flatMap((argument) => {
    const key = argument.type === 'named' ? (argument.name ?? '').replace(/^-+/, '') : argument.valueHint ?? 'arg';
    const shown = argument.type === 'named' ? `${label} ${argument.name ?? ''}` : `${label} <${argument.valueHint ?? 'value'}>`;
    if (argument.type === 'named') {
      if (argument.name === undefined || argument.name === '') return [];
      const flagOnly = argument.value === undefined && argument.default === undefined && argument.isRequired !== true && argument.isSecret !== true && argument.format === 'boolean';
      if (flagOnly) { asks.leftOut.push(`${shown}${argument.description ? `: ${argument.description}` : ''}`); return []; }
      const value = asks.value(key, argument, shown);
      return value === undefined ? [] : [argument.name, value];
    }
    const value = asks.value(key, argument, shown);
    return value === undefined ? [] : [value];
  });
}

function remoteOption(server: string, remote: RegistryTransport): InstallOption {
  const label = `remote ${remote.type} ${remote.url ?? ''}`.trim();
  const type = remote.type === 'streamable-http' ? 'http' : remote.type === 'sse' ? 'sse' : undefined;
  if (type === undefined) return { label, kind: 'remote', reason: `the transport "${remote.type}" is not one we connect to (streamable-http and sse are)`, inputs: [], needs: [], leftOut: [] };
  if (remote.url === undefined || remote.url === '') return { label, kind: 'remote', reason: 'the remote has no URL', inputs: [], needs: [], leftOut: [] };
  const asks = new Asks(server);
  const url = asks.substitute(remote.url, remote.variables ?? {}, 'url');
  const headers: Record<string, string> = {};
  for (const header of remote.headers ?? ([] as RegistryKeyValue[])) {
    const value = asks.value(header.name, header, `header ${header.name}`);
    if (value !== undefined) headers[header.name] = value;
  }
  const entry: ImportedEntry = { type, url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  return { label, kind: 'remote', entry, inputs: asks.inputs, needs: asks.needs, leftOut: asks.leftOut };
}
