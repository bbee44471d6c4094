#!/usr/bin/env node
// `npm start`: builds and packages the extension, makes sure the local VS Code (code-server) is
// installed, installs the .vsix into an isolated profile, opens the demo workspace and prints the URL.
// Chat is on, with a scripted language model installed beside the extension (the tests' own, from
// test/fixtures/scripted-model): @mcp works without a Copilot sign-in or a network.
// Runs until Ctrl-C, then stops VS Code first (the extension shuts its servers down), sweeps whatever is
// left and prints what it stopped (scripts/session.mjs). SIGTERM, SIGINT or SIGHUP sent to this process
// alone (a process manager stopping `npm start`: npm forwards it here, package.json's `exec` makes this
// process npm's own child rather than a shell's) stops it the same way; during the build and install
// steps such a signal ends the running step's whole process group, so nothing is left behind either.
//
// Environment: SWITCHBOARD_PORT (default 8765, or a free port when that one is taken; 0: any free port),
// SWITCHBOARD_DEMO_STATE (the folder for the demo copy and VS Code's profile, default .demo-state;
// wiped on every start).
import cp from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { codeServerCli, codeServerVersion } from '../test/harness/codeServer.mjs';
import { assertToolchain, readExtensionManifest, repoRoot } from '../test/harness/paths.mjs';
import { killGroup, onExit } from '../test/harness/cleanup.mjs';
import { packageScriptedModel } from '../test/harness/scriptedModel.mjs';
import { startFixtureRegistry } from '../test/fixtures/registry/serve.mjs';
import { runSession } from './session.mjs';

/**
 * Runs one build step in a process group of its own, so that a signal to this process (handled by
 * test/harness/cleanup.mjs, which runs the onExit tasks) ends the step with everything it spawned.
 */
async function step(title, command, args) {
  console.log(`\n> ${title}`);
  const child = cp.spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  const release = onExit(() => {
    console.error(`\nStopped during: ${title}`);
    killGroup(child.pid, 'SIGTERM');
  });
  const [code, signal] = await new Promise((resolve) => child.on('exit', (...result) => resolve(result)));
  release();
  if (code !== 0) {
    console.error(`\n${title} failed (exit ${code ?? signal}).`);
    process.exit(1);
  }
}

/**
 * Runs a synchronous install step. While it runs, a signal waits (the cleanup handlers are installed by
 * onExit) until the step's own process has ended, instead of leaving it running without this process.
 */
function syncStep(title, run) {
  console.log(`\n> ${title}`);
  const release = onExit(() => console.error(`\nStopped after: ${title}`));
  try {
    return run();
  } finally {
    release();
  }
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

await step('Building and packaging the extension', process.execPath, [path.join(repoRoot, 'scripts', 'package.mjs')]);
// Only what the demo runs on (code-server and its Node): the browser is the person's, the conformance
// suites are the tests'.
await step('Checking the local VS Code (code-server) toolchain', 'bash', [path.join(repoRoot, 'scripts', 'setup-toolchain.sh'), '--demo']);
assertToolchain({ browser: false });

const manifest = readExtensionManifest(repoRoot);
const vsix = path.join(repoRoot, `${manifest.name}-${manifest.version}.vsix`);

// A fresh copy of the demo on every start: play with its files freely, the repository stays clean.
const stateDir = path.resolve(repoRoot, process.env.SWITCHBOARD_DEMO_STATE || '.demo-state');
fs.rmSync(stateDir, { recursive: true, force: true });
fs.mkdirSync(stateDir, { recursive: true });
const demo = path.join(stateDir, 'demo');
fs.cpSync(path.join(repoRoot, 'demo'), demo, { recursive: true });
const workspace = path.join(demo, 'workspace');
const home = path.join(demo, 'home');

syncStep(`Installing ${path.basename(vsix)} into an isolated VS Code profile`, () => codeServerCli(stateDir, ['--install-extension', vsix], { home }));

// The scripted model: packaged from its folder (plain JavaScript, nothing to build) and installed too.
syncStep('Packaging and installing the scripted chat model', () => codeServerCli(stateDir, ['--install-extension', packageScriptedModel(path.join(stateDir, 'scripted-model.vsix'))], { home }));
const version = codeServerVersion(stateDir);

// The gallery's registry: the tests' fixture registry, on 127.0.0.1, so Browse Servers… works offline.
const registry = await startFixtureRegistry();
onExit(() => registry.close());

// SWITCHBOARD_PORT=0: any free port.
const wanted = process.env.SWITCHBOARD_PORT ? Number(process.env.SWITCHBOARD_PORT) : 8765;
await runSession({
  stateDir,
  workspace,
  home,
  port: wanted && (await portIsFree(wanted)) ? wanted : undefined,
  // The demo's servers run from this repository's packages (their .mcp.json files name ${env:SWITCHBOARD_REPO}).
  env: { SWITCHBOARD_REPO: repoRoot },
  // Chat on and VS Code's own MCP as it ships (the test settings turn both off), with the scripted model chosen for @mcp.
  settings: { 'chat.disableAIFeatures': false, 'chat.mcp.access': 'all', 'switchboard.registry.url': registry.url },
  banner: (url, server) => `
MCP Switchboard ${manifest.version} is running in VS Code ${version.vscode} (code-server ${version.codeServer}).

  Open ${url}

  Demo workspace:  ${workspace}   (project .mcp.json)
  Demo user file:  ${path.join(home, '.mcp.json')}   (user scope, ~ for this VS Code)
  Local registry:  ${registry.url}   (MCP Switchboard: Browse Servers…)
  VS Code log:     ${server.logFile}

Click the MCP Switchboard icon in the activity bar. In the Chat view, pick the model
"Scripted (no network)" and try:
  @mcp /help
  @mcp echo hello                       (a tool call through the approvals)
  @mcp what is in @everything:demo://resource/static/document/architecture.md
  @mcp /mcp__everything__args-prompt Oslo
  @mcp call mcp__tasks__build {"steps": 5, "stepMs": 1000}   (a long-running task, with progress)
  @mcp call mcp__clock__get-time        (an MCP App: "Open get-time app")
  @mcp call mcp__web__fetch {"url": "https://example.com"}   (a poisoned page, flagged)
  @mcp /greeter Ada                     (a workspace skill with its own server)
Press Ctrl-C to stop.`,
});
