// The shared translator: one host entry, field by field, into an entry of ours. Every field is either
// translated, or named in `skipped` with the reason (a note when the rest still works, the whole server
// when it would not run the way it ran there). Nothing is dropped silently.
import type { ImportedEntry, ImportedServer, LiteralSecret, SkippedItem } from './types';
import { translateVariables, type VariableDialect } from './variables';

const TRANSPORTS: Record<string, ImportedEntry['type']> = {
  stdio: 'stdio', http: 'http', sse: 'sse', ws: 'ws',
  'streamable-http': 'http', streamableHttp: 'http', streamable_http: 'http',
};

// Names and values that are credentials far more often than not.
const SECRET_NAME = /(token|secret|password|passwd|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth|session|cookie|bearer)/i;
const SECRET_VALUE = /^(bearer\s+\S+|basic\s+\S+|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|sk-[A-Za-z0-9_-]{16,}|xox[abpr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|glpat-[A-Za-z0-9_-]{20,})$/i;

/** Collects one server's translated fields, notes and the reason it cannot be imported, if any. */
export class EntryBuilder {
  private readonly fields: Partial<ImportedEntry> = {};
  private failure: string | undefined;

  constructor(readonly name: string, private readonly dialect: VariableDialect, private readonly skipped: SkippedItem[]) {}

  /** Stops the import of this server: it would not run the way it ran in its host. */
  fail(reason: string): void {
    this.failure ??= reason;
  }

  /** Records a field that is left out while the server is still imported. */
  note(field: string, reason: string): void {
    this.skipped.push({ name: this.name, reason: `"${field}" not imported: ${reason}` });
  }

  /** A string field, with its variables translated. */
  text(field: string, value: unknown): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') {
      this.fail(`"${field}" is ${describe(value)}, not a string`);
      return undefined;
    }
    return this.translate(field, value);
  }

  /** A list of strings (numbers are written as text, as a shell would pass them). */
  texts(field: string, value: unknown): string[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) {
      this.fail(`"${field}" is ${describe(value)}, not a list`);
      return undefined;
    }
    const result: string[] = [];
    for (const item of value) {
      if (typeof item !== 'string' && typeof item !== 'number') {
        this.fail(`"${field}" holds ${describe(item)}, not only strings`);
        return undefined;
      }
      const translated = this.translate(field, String(item));
      if (translated === undefined) return undefined;
      result.push(translated);
    }
    return result;
  }

  /** A map of names to strings (`env`, `headers`); numbers and booleans are written as text. */
  map(field: string, value: unknown): Record<string, string> | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) {
      this.fail(`"${field}" is ${describe(value)}, not a map of names to values`);
      return undefined;
    }
    const result: Record<string, string> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
        this.fail(`"${field}.${key}" is ${describe(item)}, not a string`);
        return undefined;
      }
      const translated = this.translate(`${field}.${key}`, String(item));
      if (translated === undefined) return undefined;
      result[key] = translated;
    }
    return result;
  }

  /** A transport name of the host, mapped to ours. */
  transport(field: string, value: unknown): ImportedEntry['type'] | undefined {
    if (value === undefined || value === null) return undefined;
    const type = typeof value === 'string' && Object.prototype.hasOwnProperty.call(TRANSPORTS, value) ? TRANSPORTS[value] : undefined;
    if (type === undefined) this.fail(`"${field}" ${JSON.stringify(value)} is not a transport Switchboard knows (stdio, http, sse, ws)`);
    return type;
  }

  /** A boolean field. */
  flag(field: string, value: unknown): boolean | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') {
      this.fail(`"${field}" is ${describe(value)}, not true or false`);
      return undefined;
    }
    return value;
  }

  /** Sets a field of the entry (undefined leaves it out). */
  set<K extends keyof ImportedEntry>(key: K, value: ImportedEntry[K] | undefined): void {
    if (value !== undefined) this.fields[key] = value;
  }

  /** The translated server, or undefined (and a `skipped` entry saying why). */
  finish(file: string, section?: string): ImportedServer | undefined {
    const fields = this.fields;
    if (this.failure === undefined && fields.command === undefined && fields.url === undefined) {
      this.fail('it has neither a command nor a URL');
    }
    if (this.failure === undefined) {
      const kind = fields.type ?? (fields.command !== undefined ? 'stdio' : 'http');
      if (kind === 'stdio' && fields.command === undefined) this.fail(`it is a ${kind} server without a command`);
      if (kind !== 'stdio' && fields.url === undefined) this.fail(`it is a ${kind} server without a URL`);
      fields.type = kind;
    }
    if (this.failure !== undefined) {
      this.skipped.push({ name: this.name, reason: `not imported: ${this.failure}` });
      return undefined;
    }
    const entry = ordered(fields as ImportedEntry);
    const server: ImportedServer = { name: this.name, entry, file, secrets: literalSecrets(entry) };
    if (section !== undefined) server.section = section;
    return server;
  }

  private translate(field: string, value: string): string | undefined {
    const translated = translateVariables(value, this.dialect);
    if (translated.ok) return translated.value;
    this.fail(`"${field}" uses ${translated.reason}`);
    return undefined;
  }
}

const ORDER: (keyof ImportedEntry)[] = ['type', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers', 'timeout', 'disabled', 'allowedTools', 'disabledTools'];

/** The entry with its keys in the order of a `.mcp.json` entry, empty lists and maps left out. */
function ordered(entry: ImportedEntry): ImportedEntry {
  const result: Record<string, unknown> = {};
  for (const key of ORDER) {
    const value = entry[key];
    if (value === undefined) continue;
    if (key !== 'allowedTools' && Array.isArray(value) && value.length === 0) continue;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) continue;
    result[key] = value;
  }
  return result as unknown as ImportedEntry;
}

/** The literal (variable-free) values of `env` and `headers` that look like credentials. */
export function literalSecrets(entry: ImportedEntry): LiteralSecret[] {
  const found: LiteralSecret[] = [];
  for (const field of ['env', 'headers'] as const) {
    for (const [key, value] of Object.entries(entry[field] ?? {})) {
      if (value === '' || value.includes('${')) continue;
      if (SECRET_NAME.test(key) || SECRET_VALUE.test(value.trim())) found.push({ field, key });
    }
  }
  return found;
}

/** Names a value's type for reasons: "a number", "a list", … */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'object': return 'a map';
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'boolean': return String(value);
    default: return typeof value;
  }
}
