// A tool definition is pinned by a hash of what the model reads and what its arguments must be, so a
// server that quietly changes a tool after approval (a rug pull) is caught; the diff says what changed.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../config/fingerprint';
import type { ToolAnnotations } from '../lifecycle/types';

/** The pinned parts of a tool; a `ToolInfo` and a stored pin both fit. */
export interface ToolDefinition {
  name: string;
  /** Read by the model too (it stands in for a missing description). */
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: ToolAnnotations | Record<string, unknown>;
}

/** One difference inside a JSON value, at a JSON Pointer (`/properties/path/description`; `` for the whole value). */
export interface JsonChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
  old?: unknown;
  new?: unknown;
}

/** Field by field, what differs between two definitions of a tool. */
export interface ToolDefinitionDiff {
  /** True when anything below differs (equivalently: the hashes differ). */
  changed: boolean;
  name?: { old: string; new: string };
  title?: { old?: string; new?: string };
  description?: { old?: string; new?: string };
  /** Leaf-level differences in the input schema. */
  inputSchema: JsonChange[];
  /** Annotation keys whose value was added, removed or changed. */
  annotations: JsonChange[];
}

/**
 * The sha256 (hex) of the canonical JSON of `{name, title, description, inputSchema, annotations}`;
 * absent fields and empty annotations count as absent, so a tool without a title hashes as it did
 * before titles were covered.
 */
export function toolDefinitionHash(tool: ToolDefinition): string {
  return createHash('sha256').update(canonicalJson(coveredFields(tool, true))).digest('hex');
}

/** The hash pins got before the title was covered; only for recognising such a pin (see PinStore). */
export function untitledDefinitionHash(tool: ToolDefinition): string {
  return createHash('sha256').update(canonicalJson(coveredFields(tool, false))).digest('hex');
}

function coveredFields(tool: ToolDefinition, withTitle: boolean): Record<string, unknown> {
  const annotations = tool.annotations !== undefined && Object.keys(tool.annotations).length > 0 ? tool.annotations : undefined;
  return { name: tool.name, title: withTitle ? tool.title : undefined, description: tool.description, inputSchema: tool.inputSchema, annotations };
}

/** What changed from `old` to `next`, for showing beside a "tool changed" warning. */
export function diffToolDefinitions(old: ToolDefinition, next: ToolDefinition): ToolDefinitionDiff {
  const diff: ToolDefinitionDiff = { changed: false, inputSchema: [], annotations: [] };
  if (old.name !== next.name) diff.name = { old: old.name, new: next.name };
  if (old.title !== next.title) diff.title = { old: old.title, new: next.title };
  if (old.description !== next.description) diff.description = { old: old.description, new: next.description };
  diffJson(old.inputSchema ?? {}, next.inputSchema ?? {}, '', diff.inputSchema);
  diffJson(old.annotations ?? {}, next.annotations ?? {}, '', diff.annotations);
  diff.changed = diff.name !== undefined || diff.title !== undefined || diff.description !== undefined || diff.inputSchema.length > 0 || diff.annotations.length > 0;
  return diff;
}

/** The diff as short lines (`description changed`, `inputSchema /properties/path/description changed`, …). */
export function formatToolDefinitionDiff(diff: ToolDefinitionDiff): string[] {
  const lines: string[] = [];
  if (diff.name) lines.push(`name changed: ${diff.name.old} → ${diff.name.new}`);
  if (diff.title) {
    const { old, new: next } = diff.title;
    lines.push(old === undefined ? `title added: ${next}` : next === undefined ? `title removed: ${old}` : `title changed: ${old} → ${next}`);
  }
  if (diff.description) lines.push(diff.description.old === undefined ? 'description added' : diff.description.new === undefined ? 'description removed' : 'description changed');
  for (const change of diff.inputSchema) lines.push(`inputSchema ${change.path || '(whole schema)'} ${change.change}`);
  for (const change of diff.annotations) lines.push(`annotations ${change.path.slice(1) || '(all)'} ${change.change}: ${show(change.old)} → ${show(change.new)}`);
  return lines;
}

function show(value: unknown): string {
  return value === undefined ? '(none)' : canonicalJson(value);
}

function diffJson(old: unknown, next: unknown, path: string, out: JsonChange[]): void {
  if (isRecord(old) && isRecord(next)) {
    const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort();
    for (const key of keys) {
      const child = `${path}/${escapePointer(key)}`;
      const a = old[key];
      const b = next[key];
      if (a === undefined && b !== undefined) out.push({ path: child, change: 'added', new: b });
      else if (a !== undefined && b === undefined) out.push({ path: child, change: 'removed', old: a });
      else diffJson(a, b, child, out);
    }
  } else if (Array.isArray(old) && Array.isArray(next)) {
    for (let i = 0; i < Math.max(old.length, next.length); i++) {
      const child = `${path}/${i}`;
      if (i >= old.length) out.push({ path: child, change: 'added', new: next[i] });
      else if (i >= next.length) out.push({ path: child, change: 'removed', old: old[i] });
      else diffJson(old[i], next[i], child, out);
    }
  } else if (canonicalJson(old) !== canonicalJson(next)) {
    out.push({ path, change: 'changed', old, new: next });
  }
}

/** RFC 6901 escaping, so a property named `a/b` cannot be read as two steps. */
function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
