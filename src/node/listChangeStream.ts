// On a 2026-07-28 connection a server tells of changed lists only on a `subscriptions/listen` stream the
// client opened (the 2025-11-25 generation sent list_changed unasked). Its notifications reach the same
// handlers as the old generation's, so the catalog hears of changes the same way on both.
import type { ServerLog } from '../core/lifecycle/ports';
import type { SessionClient } from './sessionClient';

/** How long the server may take to acknowledge the stream. */
const ACK_TIMEOUT_MS = 10_000;

/** Opens the stream for the lists the server says can change; without it the cache hints still apply. */
export async function listenForListChanges(client: SessionClient, log: ServerLog): Promise<void> {
  if (client.getProtocolEra() !== 'modern') return;
  const caps = client.getServerCapabilities() ?? {};
  const filter = {
    ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
  };
  if (Object.keys(filter).length === 0) return;
  try {
    await client.listen(filter, { timeout: ACK_TIMEOUT_MS });
  } catch (error) {
    log.warn(`the server's list changes cannot be followed (subscriptions/listen failed: ${error instanceof Error ? error.message : String(error)}); lists are read again when their cache hints run out`);
  }
}
