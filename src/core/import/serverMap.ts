// Reading a host's map of server names to entries with the shared translator.
import { translateStandardEntry, type StandardDialect } from './standardEntry';
import type { HostRead } from './types';

/** Adds every entry of `map` to `read`, translated with `dialect`. */
export function readServerMap(read: HostRead, map: Record<string, unknown>, dialect: StandardDialect, file: string, section?: string): void {
  for (const [name, raw] of Object.entries(map)) {
    const server = translateStandardEntry(name, raw, dialect, file, read.skipped, section);
    if (server !== undefined) read.servers.push(server);
  }
}

/** An empty, usable read. */
export function emptyRead(): HostRead {
  return { servers: [], inputs: [], skipped: [], problems: [], usable: true };
}
