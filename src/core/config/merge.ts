// Merges layers into the servers in effect. Precedence is data (SCOPE_ORDER), never a chain of ifs. Whole
// entries override by name — merging fields across scopes would run a command nobody wrote in one place.
import { fingerprint } from './fingerprint';
import { problemAt } from './positions';
import {
  SCOPE_ORDER,
  type ConfigProblem, type EffectiveServer, type InputDefinition, type Layer, type MergedConfig, type ServerEntry, type ShadowedServer,
} from './types';

interface Candidate {
  entry: ServerEntry;
  layer: Layer;
  /** Index of the layer in the input, the last tie-breaker. */
  order: number;
}

interface Resolution {
  name: string;
  /** One per workspace folder that defines the name, or a single non-folder winner. */
  winners: Candidate[];
  losers: Candidate[];
}

/** Merges layers by scope precedence (managed > local > project > user > plugin), keeping losers as shadowed. */
export function mergeLayers(layers: Layer[]): MergedConfig {
  const folderOrder = new Map<string, number>();
  const byName = new Map<string, Candidate[]>();
  layers.forEach((layer, order) => {
    if (layer.spec.folder !== undefined && !folderOrder.has(layer.spec.folder)) folderOrder.set(layer.spec.folder, folderOrder.size);
    for (const entry of layer.servers) {
      const list = byName.get(entry.name) ?? [];
      list.push({ entry, layer, order });
      byName.set(entry.name, list);
    }
  });
  const rankOfFolder = (folder: string | undefined): number => (folder === undefined ? -1 : folderOrder.get(folder) ?? folderOrder.size);
  const resolutions = [...byName.keys()].sort(compareText).map((name) => resolve(name, byName.get(name)!, rankOfFolder));

  const ids = assignIds(resolutions, rankOfFolder);
  const servers: EffectiveServer[] = [];
  const shadowed: ShadowedServer[] = [];
  const clashProblems: ConfigProblem[] = [];
  for (const resolution of resolutions) {
    for (const winner of resolution.winners) {
      servers.push({ ...winner.entry, id: ids.get(winner)!, fingerprint: fingerprint(winner.entry.launch), needsTrust: winner.entry.scope === 'project' || winner.entry.repositoryFolder !== undefined });
    }
    if (resolution.winners.length > 1) clashProblems.push(...clashWarnings(resolution, ids));
    for (const loser of resolution.losers) {
      const by = resolution.winners.find((winner) => loser.entry.folder !== undefined && winner.entry.folder === loser.entry.folder) ?? resolution.winners[0];
      const item: ShadowedServer = {
        name: loser.entry.name, scope: loser.entry.scope, source: loser.entry.source,
        shadowedBy: { id: ids.get(by)!, scope: by.entry.scope, file: by.entry.source.file },
      };
      if (loser.entry.folder !== undefined) item.folder = loser.entry.folder;
      shadowed.push(item);
    }
  }
  servers.sort(compareEffectiveServers);
  shadowed.sort((a, b) => scopeRank(a.scope) - scopeRank(b.scope) || compareText(a.name, b.name) || compareText(a.source.file, b.source.file));
  return {
    servers,
    shadowed,
    problems: [...layers.flatMap((layer) => layer.problems), ...clashProblems],
    inputs: mergeInputs(layers),
  };
}

/** Per folder the best entry wins; entries outside folders compete only when no folder defines the name. */
function resolve(name: string, candidates: Candidate[], rankOfFolder: (folder: string | undefined) => number): Resolution {
  const sorted = [...candidates].sort(compareCandidates);
  // What the administrator's policy provides stands above every folder's entry: no workspace replaces it.
  if (sorted[0].entry.scope === 'managed') return { name, winners: [sorted[0]], losers: sorted.slice(1) };
  const folderWinners = new Map<string, Candidate>();
  for (const candidate of sorted) {
    const folder = candidate.entry.folder;
    if (folder !== undefined && !folderWinners.has(folder)) folderWinners.set(folder, candidate);
  }
  const winners = folderWinners.size > 0
    ? [...folderWinners.values()].sort((a, b) => rankOfFolder(a.entry.folder) - rankOfFolder(b.entry.folder) || compareText(a.entry.folder ?? '', b.entry.folder ?? ''))
    : [sorted[0]];
  return { name, winners, losers: sorted.filter((candidate) => !winners.includes(candidate)) };
}

/** Plain names, folder-qualified ids for names defined by several folders, and a `~n` suffix for any clash left. */
function assignIds(resolutions: Resolution[], rankOfFolder: (folder: string | undefined) => number): Map<Candidate, string> {
  const wanted: { candidate: Candidate; id: string }[] = [];
  for (const { name, winners } of resolutions) {
    if (winners.length === 1) {
      wanted.push({ candidate: winners[0], id: name });
      continue;
    }
    const usedBases = new Set<string>();
    for (const winner of winners) {
      const base = uniqueName(basename(winner.entry.folder ?? ''), usedBases);
      usedBases.add(base);
      wanted.push({ candidate: winner, id: `${base}/${name}` });
    }
  }
  // Deterministic order for the rare global clash (a server literally named "app/x").
  wanted.sort((a, b) => scopeRank(a.candidate.entry.scope) - scopeRank(b.candidate.entry.scope)
    || rankOfFolder(a.candidate.entry.folder) - rankOfFolder(b.candidate.entry.folder)
    || compareText(a.id, b.id));
  const used = new Set<string>();
  const ids = new Map<Candidate, string>();
  for (const { candidate, id } of wanted) {
    const unique = uniqueName(id, used);
    used.add(unique);
    ids.set(candidate, unique);
  }
  return ids;
}

function clashWarnings(resolution: Resolution, ids: Map<Candidate, string>): ConfigProblem[] {
  return resolution.winners.map((winner) => {
    const others = resolution.winners.filter((other) => other !== winner)
      .map((other) => `"${other.entry.folder ?? ''}" (as "${ids.get(other)!}")`).join(', ');
    return problemAt(winner.entry.source, 'warning', 'folder-name-clash',
      `Server "${resolution.name}" is also defined in workspace folder ${others}; both are kept, this one as "${ids.get(winner)!}". Rename one of them to use a plain name.`);
  });
}

function mergeInputs(layers: Layer[]): InputDefinition[] {
  const inputs: InputDefinition[] = [];
  for (const input of layers.flatMap((layer) => layer.inputs)) {
    if (!inputs.some((other) => other.id === input.id)) inputs.push(input);
  }
  return inputs;
}

function compareCandidates(a: Candidate, b: Candidate): number {
  return scopeRank(a.entry.scope) - scopeRank(b.entry.scope)
    || compareText(a.layer.spec.label ?? '', b.layer.spec.label ?? '')
    || compareText(a.layer.spec.file, b.layer.spec.file)
    || a.order - b.order;
}

/** The order every list of effective servers is shown in (the tree, the sidebar): scope precedence, then id. */
export function compareEffectiveServers(a: Pick<EffectiveServer, 'scope' | 'id'>, b: Pick<EffectiveServer, 'scope' | 'id'>): number {
  return scopeRank(a.scope) - scopeRank(b.scope) || compareText(a.id, b.id);
}

function scopeRank(scope: ServerEntry['scope']): number {
  return SCOPE_ORDER.indexOf(scope);
}

/** Code-unit order: unlike localeCompare it is the same on every machine. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function uniqueName(name: string, used: ReadonlySet<string>): string {
  if (!used.has(name)) return name;
  let n = 2;
  while (used.has(`${name}~${n}`)) n++;
  return `${name}~${n}`;
}

/** The last segment of a folder path, with either separator (the core sees Windows and POSIX paths). */
function basename(folder: string): string {
  const segments = folder.split(/[\\/]+/).filter((segment) => segment !== '');
  return segments[segments.length - 1] ?? folder;
}
