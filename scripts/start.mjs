#!/usr/bin/env node
// `npm start`: builds and packages the extension, makes sure the local VS Code (code-server) is
// installed, installs the .vsix into an isolated profile, opens the demo workspace and prints the URL.
// Chat is on, with a scripted language model installed beside the extension (the tests' own, from
// test/fixtures/scripted-model): @mcp works without a Copilot sign-in or a network.
// Runs until Ctrl-C, then stops VS Code first (the extension shuts its servers down), sweeps whatever is
// left and prints what it stopped (scripts/session.mjs).
//
// Environment: SWITCHBOARD_PORT (default 8765, or a free port when that one is taken).
import cp from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { codeServerCli, codeServerVersion } from '../test/harness/codeServer.mjs';
import { assertToolchain, readExtensionManifest, repoRoot } from '../test/harness/paths.mjs';
import { packageScriptedModel } from '../test/harness/scriptedModel.mjs';
import { runSession } from './session.mjs';

function step(title, command, args) {
  console.log(`\n> ${title}`);
  const r = cp.spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`\n${title} failed (exit ${r.status ?? r.signal}).`);
    process.exit(1);
  }
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

step('Building and packaging the extension', process.execPath, [path.join(repoRoot, 'scripts', 'package.mjs')]);
step('Checking the local VS Code (code-server) toolchain', 'bash', [path.join(repoRoot, 'scripts', 'setup-toolchain.sh')]);
assertToolchain();

const manifest = readExtensionManifest(repoRoot);
const vsix = path.join(repoRoot, `${manifest.name}-${manifest.version}.vsix`);

// A fresh copy of the demo on every start: play with its files freely, the repository stays clean.
const stateDir = path.join(repoRoot, '.demo-state');
fs.rmSync(stateDir, { recursive: true, force: true });
fs.mkdirSync(stateDir, { recursive: true });
const demo = path.join(stateDir, 'demo');
fs.cpSync(path.join(repoRoot, 'demo'), demo, { recursive: true });
const workspace = path.join(demo, 'workspace');
const home = path.join(demo, 'home');

console.log(`\n> Installing ${path.basename(vsix)} into an isolated VS Code profile`);
codeServerCli(stateDir, ['--install-extension', vsix], { home });

// The scripted model: packaged from its folder (plain JavaScript, nothing to build) and installed too.
console.log('\n> Packaging and installing the scripted chat model');
codeServerCli(stateDir, ['--install-extension', packageScriptedModel(path.join(stateDir, 'scripted-model.vsix'))], { home });
const version = codeServerVersion(stateDir);

const wanted = Number(process.env.SWITCHBOARD_PORT) || 8765;
await runSession({
  stateDir,
  workspace,
  home,
  port: (await portIsFree(wanted)) ? wanted : undefined,
  // Chat on (the test settings turn it off), with the scripted model chosen for @mcp.
  settings: { 'chat.disableAIFeatures': false },
  banner: (url, server) => `
MCP Switchboard ${manifest.version} is running in VS Code ${version.vscode} (code-server ${version.codeServer}).

  Open ${url}

  Demo workspace:  ${workspace}   (project .mcp.json)
  Demo user file:  ${path.join(home, '.mcp.json')}   (user scope, ~ for this VS Code)
  VS Code log:     ${server.logFile}

Click the MCP Switchboard icon in the activity bar. In the Chat view, pick the model
"Scripted (no network)" and try:
  @mcp /help
  @mcp echo hello                       (a tool call through the approvals)
  @mcp what is in @everything:demo://resource/static/document/architecture.md
  @mcp /mcp__everything__args-prompt Oslo
Press Ctrl-C to stop.`,
});
