// The real bash parser for tests that read command lines (danger flags, runner configuration), as the
// extension and the CLI do. It loads asynchronously once; `shellParser` may be handed out before that.
import type { ShellParser } from '../../../src/core/shell';
import { loadBashParser } from '../../../src/node/bashParser';

let loaded: ShellParser | undefined;

before(async () => {
  loaded = await loadBashParser();
});

/** Parses with the loaded bash parser; usable in any test (the root hook above has run by then). */
export const shellParser: ShellParser = { parse: (text) => loaded!.parse(text) };
