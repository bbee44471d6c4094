// Builders and fakes shared by the config core tests.
import type { Disposable } from '../../../src/core/disposable';
import { parseLayer } from '../../../src/core/config/parse';
import type { ConfigFileSystem } from '../../../src/core/config/ports';
import type { ConfigProblem, ConfigRead, Layer, LayerSpec, Scope } from '../../../src/core/config/types';

export const HOME = '/home/ada';

/** A project-scope spec for folder `/ws/app`, with overrides. */
export function makeSpec(overrides: Partial<LayerSpec> = {}): LayerSpec {
  return {
    scope: 'project',
    file: '/ws/app/.mcp.json',
    folder: '/ws/app',
    vars: { env: {}, userHome: HOME, workspaceFolder: '/ws/app' },
    ...overrides,
  };
}

/** A spec for one of the scopes, with a file named after it. */
export function scopeSpec(scope: Scope, extra: Partial<LayerSpec> = {}): LayerSpec {
  const vars = { env: {}, userHome: HOME };
  switch (scope) {
    case 'managed': return { scope, file: '/etc/mcp-switchboard/policy.json', label: 'policy', vars, ...extra };
    case 'local': return { scope, file: '/store/local/app.mcp.json', folder: '/ws/app', vars: { ...vars, workspaceFolder: '/ws/app' }, ...extra };
    case 'project': return { scope, file: '/ws/app/.mcp.json', folder: '/ws/app', vars: { ...vars, workspaceFolder: '/ws/app' }, ...extra };
    case 'user': return { scope, file: `${HOME}/.mcp.json`, vars, ...extra };
    case 'plugin': return { scope, file: '/ext/pub.tool/package.json', root: ['contributes'], label: 'pub.tool', vars: { ...vars, extensionPath: '/ext/pub.tool' }, ...extra };
  }
}

/** Parses `text` as the file of `spec` (a project file by default). */
export function parseText(text: string, overrides: Partial<LayerSpec> = {}): Layer {
  return parseLayer(makeSpec(overrides), { kind: 'text', text });
}

/** Parses an object written as JSON, e.g. `{ mcpServers: { … } }`. */
export function parseJson(value: unknown, overrides: Partial<LayerSpec> = {}): Layer {
  return parseText(JSON.stringify(value, null, 2), overrides);
}

/** A problem reduced to what the tests compare: `code severity line:column-endLine:endColumn`. */
export function brief(problem: ConfigProblem): string {
  return `${problem.code} ${problem.severity} ${problem.line}:${problem.column}-${problem.endLine}:${problem.endColumn}`;
}

/** All problems of a layer in brief form. */
export function briefs(layer: { problems: ConfigProblem[] }): string[] {
  return layer.problems.map(brief);
}

/** An in-memory ConfigFileSystem whose watchers fire only when a test says so. */
export class FakeFileSystem implements ConfigFileSystem {
  readonly files = new Map<string, ConfigRead>();
  readonly reads: string[] = [];
  readonly watchers = new Map<string, Set<() => void>>();
  failReads = new Set<string>();
  failWatches = new Set<string>();

  set(file: string, text: string): void {
    this.files.set(file, { kind: 'text', text });
  }

  /** Writes the file and fires its watchers, as a save in the editor would. */
  write(file: string, text: string): void {
    this.set(file, text);
    this.fire(file);
  }

  /** Deletes the file and fires its watchers. */
  remove(file: string): void {
    this.files.delete(file);
    this.fire(file);
  }

  fire(file: string): void {
    for (const listener of [...this.watchers.get(file) ?? []]) listener();
  }

  watcherCount(): number {
    let count = 0;
    for (const set of this.watchers.values()) count += set.size;
    return count;
  }

  async read(file: string, maxBytes: number): Promise<ConfigRead> {
    this.reads.push(file);
    await Promise.resolve();
    if (this.failReads.has(file)) throw new Error(`EACCES: permission denied, open '${file}'`);
    const found = this.files.get(file) ?? { kind: 'missing' };
    if (found.kind === 'text' && found.text.length > maxBytes) return { kind: 'tooLarge', size: found.text.length };
    return found;
  }

  watch(file: string, onChange: () => void): Disposable {
    if (this.failWatches.has(file)) throw new Error('too many watchers');
    const set = this.watchers.get(file) ?? new Set();
    set.add(onChange);
    this.watchers.set(file, set);
    return { dispose: () => { set.delete(onChange); } };
  }
}

/** Resolves after `ms` real milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
