// Searching an MCP registry over HTTP: one GET of `/v0/servers`, bounded in time and size, its answer
// read by the gallery core. Errors say which URL and what went wrong, for a person to act on.
import { MAX_REGISTRY_RESPONSE_BYTES, readRegistryPage, searchUrl, type RegistryPage } from '../core/gallery';

const TIMEOUT_MS = 15_000;

/** A registry that could not be searched, said for a person. */
export class RegistryError extends Error {}

/** One page of servers whose names contain `search` (all servers when empty). */
export async function searchRegistry(base: string, query: { search: string; limit: number; cursor?: string }, signal?: AbortSignal): Promise<RegistryPage> {
  let url: string;
  try {
    url = searchUrl(base, query);
  } catch (error) {
    throw new RegistryError(`the registry URL ${JSON.stringify(base)} is not usable: ${(error as Error).message}`);
  }
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new RegistryError(`cannot reach the registry at ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const text = await bounded(response, url);
  if (!response.ok) throw new RegistryError(`the registry at ${url} answered ${response.status} ${response.statusText}${text.trim() !== '' ? `: ${text.trim().slice(0, 200)}` : ''}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RegistryError(`the registry at ${url} answered something that is not JSON (${text.trim().slice(0, 80)}…)`);
  }
  try {
    return readRegistryPage(body);
  } catch (error) {
    throw new RegistryError(`${url}: ${(error as Error).message}`);
  }
}

async function bounded(response: Response, url: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_REGISTRY_RESPONSE_BYTES) throw new RegistryError(`the registry at ${url} answered ${declared} bytes, more than the ${MAX_REGISTRY_RESPONSE_BYTES} read`);
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_REGISTRY_RESPONSE_BYTES) throw new RegistryError(`the registry at ${url} answered more than the ${MAX_REGISTRY_RESPONSE_BYTES} bytes read`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
