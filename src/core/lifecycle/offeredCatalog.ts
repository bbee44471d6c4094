// The catalog as the rest of the extension sees it: the server's tools minus those its entry's
// `allowedTools`/`disabledTools` hide, with the entry's `alwaysLoad` carried along. Computed from the
// listed catalog and the entry, and cached on both (a catalog or an entry is replaced, never mutated),
// so views that read it on every refresh get the same object back.
import type { ServerEntry } from '../config/types';
import { hasToolFilter, isToolOffered } from '../config/toolFilter';
import type { Catalog } from './types';

/** The part of an entry the offered catalog depends on. */
export type OfferSource = Pick<ServerEntry, 'allowedTools' | 'disabledTools' | 'alwaysLoad'>;

/** The listed catalog with hidden tools left out and `alwaysLoad` set from the entry. */
export function offeredCatalog(listed: Catalog, server: OfferSource): Catalog {
  const offered: Catalog = { ...listed, alwaysLoad: server.alwaysLoad };
  delete offered.hiddenTools;
  if (!hasToolFilter(server)) return offered;
  offered.tools = listed.tools.filter((tool) => isToolOffered(server, tool.name));
  const hidden = listed.tools.length - offered.tools.length;
  if (hidden > 0) offered.hiddenTools = hidden;
  return offered;
}

/** offeredCatalog() remembering its last answer, for one server. */
export class OfferedCatalogCache {
  private last: { listed: Catalog; server: OfferSource; offered: Catalog } | undefined;

  /** The offered catalog of `listed` under `server`, the same object while neither changed. */
  get(listed: Catalog, server: OfferSource): Catalog {
    const last = this.last;
    if (last !== undefined && last.listed === listed && last.server === server) return last.offered;
    const offered = offeredCatalog(listed, server);
    this.last = { listed, server, offered };
    return offered;
  }
}
