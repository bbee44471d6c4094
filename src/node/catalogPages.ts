// One catalog listing over the SDK Client. Without a cursor the Client walks every page itself and keeps
// the whole list (it checks structured tool results against it, and serves it again while the server's
// cache hint says it is fresh); the result's `ttlMs` is that hint, passed on to the catalog loader.
import type { Page } from '../core/lifecycle/ports';
import type { CatalogItemOf, CatalogKind } from '../core/lifecycle/types';
import type { SdkRequestOptions } from './sdk';
import type { SessionClient } from './sessionClient';

const METHODS: Record<CatalogKind, { method: string; field: string }> = {
  tools: { method: 'tools/list', field: 'tools' },
  resources: { method: 'resources/list', field: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', field: 'resourceTemplates' },
  prompts: { method: 'prompts/list', field: 'prompts' },
};

/** One page of `kind` (all of them, without a cursor), with the server's cache hint. */
export async function listCatalogPage<K extends CatalogKind>(client: SessionClient, kind: K, cursor: string | undefined, sdk: SdkRequestOptions): Promise<Page<CatalogItemOf[K]>> {
  const params = cursor === undefined ? undefined : { cursor };
  let result: Record<string, unknown>;
  try {
    result = await listWithClient(client, kind, params, sdk);
  } catch (error) {
    // The SDK's result schema walks every nested schema of a listing recursively; one nested thousands
    // deep overflows the stack there and would lose the whole listing. That page is read as plain JSON
    // instead, so that the catalog can refuse just the tools that are too deep, with the reason.
    if (!(error instanceof RangeError)) throw error;
    result = (await client.request({ method: METHODS[kind].method, params: params ?? {} }, plainObject, sdk)) as Record<string, unknown>;
  }
  const items = result[METHODS[kind].field];
  if (!Array.isArray(items)) throw new Error(`the server answered ${METHODS[kind].method} without a "${METHODS[kind].field}" list`);
  // The whole list (no cursor) is the one the Client keeps and checks call results against.
  if (kind === 'tools' && cursor === undefined) client.prepareOutputSchemas(items as { outputSchema?: unknown }[]);
  // The server's objects are passed through; the core's types mirror the protocol's JSON.
  const page: Page<CatalogItemOf[K]> = { items: items as CatalogItemOf[K][] };
  if (typeof result.nextCursor === 'string') page.nextCursor = result.nextCursor;
  if (typeof result.ttlMs === 'number' && Number.isFinite(result.ttlMs) && result.ttlMs > 0) page.ttlMs = result.ttlMs;
  return page;
}

function listWithClient(client: SessionClient, kind: CatalogKind, params: { cursor: string } | undefined, sdk: SdkRequestOptions): Promise<Record<string, unknown>> {
  switch (kind) {
    case 'tools': return client.listTools(params, sdk);
    case 'resources': return client.listResources(params, sdk);
    case 'resourceTemplates': return client.listResourceTemplates(params, sdk);
    case 'prompts': return client.listPrompts(params, sdk);
  }
}

/** A Standard Schema that accepts any JSON object as it is (the catalog bounds and checks the items). */
const plainObject = {
  '~standard': {
    version: 1 as const,
    vendor: 'mcp-switchboard',
    validate: (value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { value: value as Record<string, unknown> }
      : { issues: [{ message: 'the result is not a JSON object' }] }),
  },
};
