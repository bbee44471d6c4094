#!/usr/bin/env node
// Runs `npm start`'s session (scripts/session.mjs: code-server until Ctrl-C, then the orderly stop) on a
// prepared state folder, for the Ctrl-C check (ctrlc.mjs). Usage: sessionDriver.mjs STATE_DIR WORKSPACE HOME
import { runSession } from '../../scripts/session.mjs';

const [stateDir, workspace, home] = process.argv.slice(2);
if (!stateDir || !workspace || !home) {
  console.error('usage: sessionDriver.mjs STATE_DIR WORKSPACE HOME');
  process.exit(2);
}
await runSession({ stateDir, workspace, home, banner: (url) => `Open ${url}` });
