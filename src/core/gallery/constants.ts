// The gallery's fixed numbers: where the official registry is, how much of an answer is read, a page's size.

/** The official MCP registry (the setting switchboard.registry.url overrides it). */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
/** A registry answer larger than this is refused rather than parsed. */
export const MAX_REGISTRY_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Servers asked for per page. */
export const SEARCH_LIMIT = 30;
