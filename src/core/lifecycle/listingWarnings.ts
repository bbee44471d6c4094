// A ready server whose tools/list (or another listing) failed offers less than it says: without a word
// it would look like a server with no tools. These lines name the failed listing and its error, for
// every surface that shows the server (the Servers view, the status bar, the sidebar, `status`).
import type { ServerState } from './state';
import type { Catalog, CatalogKind } from './types';

/** The MCP method that lists each kind. */
export const LIST_METHODS: { readonly [K in CatalogKind]: string } = {
  tools: 'tools/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
  prompts: 'prompts/list',
};

/** One line per failed listing, in display order: `tools/list failed: MCP error -32603: the database is down`. */
export function listingWarnings(catalog: Pick<Catalog, 'failedListings'>): string[] {
  return (catalog.failedListings ?? []).map((failed) => `${LIST_METHODS[failed.kind]} failed: ${failed.error}`);
}

/** A server's warnings: only while it is ready (otherwise its state says what is wrong). */
export function serverWarnings(view: { readonly state: ServerState; readonly catalog: Pick<Catalog, 'failedListings'> }): string[] {
  return view.state.kind === 'ready' ? listingWarnings(view.catalog) : [];
}
