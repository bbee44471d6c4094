// What a file-writing tool call will change, predicted before it runs: the shape the approval card
// shows and `switchboard preview` prints.
import type { PreviewFileSystem } from './fileSystemPort';

/** One file (or folder, for a move) the call changes. */
export interface FileChange {
  /** Absolute path of what the call writes (for a move: what it moves), symbolic links resolved as the server resolves them. */
  path: string;
  kind: 'create' | 'modify' | 'move';
  /** The text there now, decoded as UTF-8; null when nothing is there (create) or it is not a readable file (a folder that moves). */
  before: string | null;
  /** The text the call leaves; null for a folder that moves. */
  after: string | null;
  /** For a move: the absolute path it moves to. */
  to?: string;
}

/** A prediction: the changes, their unified diff, and why the server would refuse the call (then nothing changes). */
export interface FilePreview {
  changes: FileChange[];
  /** Unified diff of every change, in order ('' when nothing changes). */
  diff: string;
  /** Set when the server would refuse the call; `changes` is then empty. */
  error?: string;
  /** Paths the call names that lie outside every root (flagged on the card; for server-filesystem also the reason of `error`). */
  outsideRoots?: string[];
  /** True for an edit_file with `dryRun`: the server only answers with its diff and changes nothing. */
  dryRun?: boolean;
}

/** What a prediction may look at: the roots (the workspace folders sent to servers), the file system (read only), the home folder `~` stands for. */
export interface PreviewContext {
  roots: string[];
  fs: PreviewFileSystem;
  home: string;
}
