// The entry shape most hosts share with us (Claude, Cursor, Windsurf, VS Code, Zed): `command`, `args`,
// `env`, `url`, `headers`, … Each host says which of these fields it has, what its URL field is called,
// its variable syntax, and what to say about the fields it has and we do not.
import { describe, EntryBuilder } from './entry';
import type { ImportedServer, SkippedItem } from './types';
import type { VariableDialect } from './variables';

/** The common fields a host's entries may have. */
export type StandardField = 'type' | 'command' | 'args' | 'env' | 'envFile' | 'cwd' | 'url' | 'headers' | 'disabled' | 'disabledTools';

const STANDARD_FIELDS: readonly StandardField[] = ['type', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers', 'disabled', 'disabledTools'];

/** How one host writes the shared entry shape. */
export interface StandardDialect {
  variables: VariableDialect;
  fields: readonly StandardField[];
  /** The host's name for `url` when it differs (Windsurf: `serverUrl`, also accepting `url`). */
  urlFields?: readonly string[];
  /** Fields of the host that are left out, with the reason; the server is still imported. */
  notes?: Readonly<Record<string, string>>;
  /** Fields of the host that make the server untranslatable, with the reason. */
  blockers?: Readonly<Record<string, string>>;
}

/** Translates one entry of the shared shape; undefined when it was skipped (the reason is in `skipped`). */
export function translateStandardEntry(
  name: string, raw: unknown, dialect: StandardDialect, file: string, skipped: SkippedItem[], section?: string,
): ImportedServer | undefined {
  const builder = new EntryBuilder(name, dialect.variables, skipped);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    builder.fail(`its definition is ${describe(raw)}, not an object`);
    return builder.finish(file, section);
  }
  const entry = raw as Record<string, unknown>;
  const urlFields = dialect.urlFields ?? ['url'];
  const has = (field: StandardField): boolean => dialect.fields.includes(field);
  for (const key of Object.keys(entry)) {
    if (has(key as StandardField) || urlFields.includes(key)) continue;
    const blocker = dialect.blockers?.[key];
    if (blocker !== undefined) builder.fail(`"${key}": ${blocker}`);
    else if (STANDARD_FIELDS.includes(key as StandardField)) builder.note(key, 'this host does not read it, so it had no effect there');
    else builder.note(key, dialect.notes?.[key] ?? 'not a field Switchboard knows');
  }
  if (has('type')) builder.set('type', builder.transport('type', entry.type));
  builder.set('command', builder.text('command', entry.command));
  builder.set('args', builder.texts('args', entry.args));
  builder.set('env', builder.map('env', entry.env));
  if (has('envFile')) builder.set('envFile', builder.text('envFile', entry.envFile));
  if (has('cwd')) builder.set('cwd', builder.text('cwd', entry.cwd));
  const urlField = urlFields.find((field) => entry[field] !== undefined);
  if (urlField !== undefined) builder.set('url', builder.text(urlField, entry[urlField]));
  if (has('headers')) builder.set('headers', builder.map('headers', entry.headers));
  if (has('disabled')) builder.set('disabled', builder.flag('disabled', entry.disabled) === true ? true : undefined);
  if (has('disabledTools')) builder.set('disabledTools', builder.texts('disabledTools', entry.disabledTools));
  return builder.finish(file, section);
}
