// What an import writes, decided from what a person ticked: a name the target already has is renamed,
// replaces the existing entry, or is skipped; literal secrets they chose to move become `${input:…}`
// references declared as password inputs, their values handed back to be kept in secret storage.
import type { ImportedEntry, ImportedInput, ImportedServer, LiteralSecret } from './types';

/** What to do with a ticked server whose name the target file already has. */
export type Conflict = { kind: 'rename'; name: string } | { kind: 'replace' } | { kind: 'skip' };

/** One entry to write. */
export interface PlannedServer {
  name: string;
  entry: ImportedEntry;
  /** Replace an entry of this name (the person chose Replace). */
  replace: boolean;
  /** The repository file it comes from, when it is repository content: it is trusted before it is written, and its entry says so. */
  fromWorkspace?: string;
}

/** The whole write: entries, input declarations, and secret values to store under input ids. */
export interface ImportPlan {
  servers: PlannedServer[];
  inputs: ImportedInput[];
  secrets: { id: string; value: string }[];
}

/** Builds the plan for the ticked servers; `conflicts` answers each ticked name the target has. */
export function planImport(
  ticked: readonly ImportedServer[], sourceInputs: readonly ImportedInput[], existing: ReadonlySet<string>,
  conflicts: ReadonlyMap<string, Conflict>, moveSecrets: boolean,
): ImportPlan {
  const plan: ImportPlan = { servers: [], inputs: [], secrets: [] };
  const taken = new Set(existing);
  for (const server of ticked) {
    const conflict = existing.has(server.name) ? conflicts.get(server.name) ?? { kind: 'skip' } : undefined;
    if (conflict?.kind === 'skip') continue;
    const name = conflict?.kind === 'rename' ? conflict.name : server.name;
    if (conflict?.kind !== 'replace' && taken.has(name) && name !== server.name) continue;
    taken.add(name);
    let entry = server.entry;
    if (moveSecrets && server.secrets.length > 0) {
      const moved = withSecretInputs(name, entry, server.secrets);
      entry = moved.entry;
      plan.inputs.push(...moved.inputs);
      plan.secrets.push(...moved.secrets);
    }
    plan.servers.push({ name, entry, replace: conflict?.kind === 'replace', ...(server.fromWorkspace === true ? { fromWorkspace: server.file } : {}) });
  }
  const used = JSON.stringify(plan.servers.map((server) => server.entry));
  for (const input of sourceInputs) {
    if (used.includes(`\${input:${input.id}}`) && !plan.inputs.some((known) => known.id === input.id)) plan.inputs.push(input);
  }
  return plan;
}

/** The planned servers that are repository content: the trust prompt asks about them before anything is written. */
export function workspaceServersOf(plan: ImportPlan): (PlannedServer & { fromWorkspace: string })[] {
  return plan.servers.filter((server): server is PlannedServer & { fromWorkspace: string } => server.fromWorkspace !== undefined);
}

/** The input id a moved secret gets: `<server>-<key>`, kept to the characters ids are made of. */
export function secretInputId(server: string, key: string): string {
  return `${server}-${key}`.replace(/[^A-Za-z0-9_.-]+/g, '-');
}

/** A name that is neither taken nor the original: `name-2`, `name-3`, … */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  for (let n = 2; ; n++) if (!taken.has(`${name}-${n}`)) return `${name}-${n}`;
}

function withSecretInputs(name: string, entry: ImportedEntry, secrets: readonly LiteralSecret[]): Pick<ImportPlan, 'inputs' | 'secrets'> & { entry: ImportedEntry } {
  const copy: ImportedEntry = JSON.parse(JSON.stringify(entry)) as ImportedEntry;
  const inputs: ImportedInput[] = [];
  const values: { id: string; value: string }[] = [];
  for (const secret of secrets) {
    const map = copy[secret.field];
    const value = map?.[secret.key];
    if (map === undefined || value === undefined) continue;
    const id = secretInputId(name, secret.key);
    // `Bearer <token>` keeps its scheme in the file: only the token is secret.
    const scheme = /^(Bearer|Basic|Token)\s+(\S.*)$/i.exec(value);
    map[secret.key] = scheme === null ? `\${input:${id}}` : `${scheme[1]} \${input:${id}}`;
    values.push({ id, value: scheme === null ? value : scheme[2] });
    inputs.push({ id, type: 'promptString', description: `${secret.key} of ${name}`, password: true });
  }
  return { entry: copy, inputs, secrets: values };
}
