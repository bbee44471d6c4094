// What an `@server:uri` mention (or a bare URI) names: a resource a server lists, an instance of one of
// its resource templates, a template whose variables are still to be filled, or nothing — then with the
// nearest names, so a person (or a model) can correct it.
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { closestNames } from '../naming/suggestions';
import type { ResourceInfo, ResourceTemplateInfo } from '../lifecycle/types';
import type { ChatServer } from './modelTools';

export type MentionTarget =
  | { readonly kind: 'resource'; readonly server: string; readonly uri: string; readonly resource: ResourceInfo }
  | { readonly kind: 'templateInstance'; readonly server: string; readonly uri: string; readonly template: ResourceTemplateInfo; readonly values: Record<string, string> }
  | { readonly kind: 'template'; readonly server: string; readonly template: ResourceTemplateInfo; readonly variables: string[] }
  | { readonly kind: 'unknownServer'; readonly server: string; readonly suggestions: string[] }
  | { readonly kind: 'serverNotReady'; readonly server: string; readonly state: string }
  | { readonly kind: 'unknownUri'; readonly server: string; readonly uri: string; readonly suggestions: string[] };

/** How many of a server's resources an "unknown URI" message offers when none is close. */
const FALLBACK_SUGGESTIONS = 5;

/** Resolves `server` + `uri` against the servers' catalogs. `stateLabel` words a state for people. */
export function resolveMention<S extends { readonly kind: string }>(server: string, uri: string, servers: readonly ChatServer<S>[], stateLabel: (state: S) => string = (s) => s.kind): MentionTarget {
  const view = servers.find((candidate) => candidate.id === server);
  if (view === undefined) return { kind: 'unknownServer', server, suggestions: closestNames(server, servers.map((candidate) => candidate.id)) };
  if (view.state.kind !== 'ready') return { kind: 'serverNotReady', server, state: stateLabel(view.state) };
  const { resources, resourceTemplates } = view.catalog;
  const resource = resources.find((candidate) => candidate.uri === uri);
  if (resource) return { kind: 'resource', server, uri, resource };
  const template = resourceTemplates.find((candidate) => candidate.uriTemplate === uri);
  if (template) return { kind: 'template', server, template, variables: templateVariables(template.uriTemplate) };
  if (!UriTemplate.isTemplate(uri)) {
    for (const candidate of resourceTemplates) {
      const values = matchTemplate(candidate.uriTemplate, uri);
      if (values !== undefined && Object.keys(values).length > 0) return { kind: 'templateInstance', server, uri, template: candidate, values };
    }
  }
  const known = [...resources.map((r) => r.uri), ...resourceTemplates.map((t) => t.uriTemplate)];
  const close = closestNames(uri, known);
  return { kind: 'unknownUri', server, uri, suggestions: close.length > 0 ? close : known.slice(0, FALLBACK_SUGGESTIONS) };
}

/**
 * Finds the server of a bare URI: the ready servers that list it or have a template it is an instance
 * of. More than one means the caller must say which (`@server:uri`).
 */
export function serversOfUri(uri: string, servers: readonly ChatServer[]): string[] {
  return servers.filter((view) => view.state.kind === 'ready' && (
    view.catalog.resources.some((r) => r.uri === uri)
    || view.catalog.resourceTemplates.some((t) => t.uriTemplate === uri || (!UriTemplate.isTemplate(uri) && Object.keys(matchTemplate(t.uriTemplate, uri) ?? {}).length > 0))
  )).map((view) => view.id);
}

// Resource templates (RFC 6570) are the SDK's UriTemplate; these three give its answers the shapes the
// mentions use: each variable once, values as one decoded string, and a server's malformed template
// taken as matching nothing rather than failing the whole lookup.

/** The template's variable names, in order, each once (none for a template the SDK cannot read). */
export function templateVariables(template: string): string[] {
  try {
    return [...new Set(new UriTemplate(template).variableNames)];
  } catch {
    return [];
  }
}

/** The template filled with `values` (a variable without a value is left out, as RFC 6570 says). */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return new UriTemplate(template).expand(values);
}

/** The values that make `template` expand to `uri`, decoded, or undefined when `uri` is no instance of it. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  let matched: Record<string, string | string[]> | null;
  try {
    matched = new UriTemplate(template).match(uri);
  } catch {
    return undefined;
  }
  if (matched === null) return undefined;
  return Object.fromEntries(Object.entries(matched).map(([name, value]) => [name, decode(Array.isArray(value) ? value.join(',') : value)]));
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One sentence for a mention that names nothing readable, with the nearest names. */
export function describeUnresolved(target: Extract<MentionTarget, { kind: 'unknownServer' | 'serverNotReady' | 'unknownUri' }>): string {
  switch (target.kind) {
    case 'unknownServer':
      return `There is no MCP server named "${target.server}"${target.suggestions.length > 0 ? `; did you mean ${orList(target.suggestions.map((s) => `"${s}"`))}?` : '.'}`;
    case 'serverNotReady':
      return `The MCP server "${target.server}" is not ready (${target.state}), so its resources cannot be read.`;
    case 'unknownUri':
      return target.suggestions.length > 0
        ? `The MCP server "${target.server}" has no resource ${target.uri}; nearest: ${target.suggestions.join(', ')}.`
        : `The MCP server "${target.server}" has no resource ${target.uri}, and lists none.`;
  }
}

function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
