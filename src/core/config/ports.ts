import type { Disposable } from '../disposable';
import type { ConfigRead } from './types';

/** Config files larger than this are reported instead of parsed: a real .mcp.json is a few KiB. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** What the config service needs from a file system. Implemented in src/node (plain fs) and src/vscode. */
export interface ConfigFileSystem {
  /** Reads a file as UTF-8 text; reports missing files, directories and files over `maxBytes` without throwing. */
  read(file: string, maxBytes: number): Promise<ConfigRead>;
  /** Calls `onChange` when the file is created, changed or deleted (even if its folder does not exist yet). */
  watch(file: string, onChange: () => void): Disposable;
}
