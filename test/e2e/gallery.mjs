// Browse Servers and install links in a real VS Code in a real browser, as a person uses them with the
// keyboard: the gallery searches the local fixture registry (test/fixtures/registry, its URL through the
// setting switchboard.registry.url; nothing reaches the network) as they type, Enter on a server picks
// the user scope, the review dialog shows the whole entry and Install writes it (the secret asked in a
// password box, kept out of the file, the file's comment kept); then a pasted install link opens the
// same review, and Cancel writes nothing. The installed servers are held by a policy rule of the flow's
// settings, so nothing they would fetch is ever started. Its own code-server, state folder and fixture.
import cp from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { codeServerCli, startCodeServer } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { treeDescription, until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { openWorkbench, runWorkbenchFlow } from './workbenchFlow.mjs';

const SECRET = 'e2e-gallery-key-not-real';

/** Starts the fixture registry; resolves to { url, stop }. */
function startRegistry() {
  const child = cp.spawn(process.execPath, [path.join(repoRoot, 'test', 'fixtures', 'registry', 'serve.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('error', reject);
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve({ url: output.split('\n')[0].trim(), stop: () => { if (child.exitCode === null) child.kill('SIGTERM'); } });
    });
  });
}

/** Runs the gallery and install-link checks into `checks`. Options: vsix, manifest, resultsDir, log, timeoutMs. */
export async function galleryFlow({ checks, vsix, resultsDir, log, timeoutMs }) {
  const stateDir = makeStateDir('e2e-gallery');
  const fixture = prepareFixture('e2e-gallery', stateDir);
  const userFile = path.join(fixture.home, '.mcp.json');
  let server;
  let browser;
  let registry;
  const shot = async (name) => {
    const file = path.join(resultsDir, name);
    await browser?.page.screenshot({ path: file }).catch((e) => log(`screenshot ${name} failed: ${e.message}`));
    return file;
  };

  const flow = async () => {
    await checks.gate('gallery flow: the workbench opens with the registry setting pointing at the local fixture registry', async () => {
      registry = await startRegistry();
      codeServerCli(stateDir, ['--install-extension', vsix]);
      server = await startCodeServer({
        stateDir, home: fixture.home, logFile: path.join(resultsDir, 'code-server-gallery.log'), env: { SWITCHBOARD_REPO: repoRoot },
        settings: { 'switchboard.registry.url': registry.url, 'switchboard.policy.deniedServers': ['weather', 'linked'] },
      });
      browser = await openWorkbench({ server, folder: fixture.workspace, log });
      await ui.openContainer(browser.page, 'MCP Switchboard');
    });
    if (checks.blocked) return;
    const { page } = browser;
    const input = page.locator('.quick-input-widget input');
    const row = (text) => page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
    const palette = async (command) => {
      await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible' });
      await input.fill(`>MCP Switchboard: ${command}`);
      await row(command).waitFor();
      await page.keyboard.press('Enter');
    };

    await checks.gate('Browse Servers… searches the registry as you type and shows version, publisher, transport, needs and repository', async () => {
      await palette('Browse Servers');
      await page.locator('.quick-input-widget input[placeholder="Search the MCP registry by server name"]').waitFor();
      await row('io.github.example-org/notes-dotnet').waitFor({ timeout: 15_000 });
      await input.fill('weather');
      await until('only the weather servers', async () => (await page.locator('.quick-input-list .monaco-list-row').count()) === 3
        && !(await row('tickets').count()), 15_000);
      const text = (await row('Weather').innerText()).replace(/\s+/g, ' ');
      log(`  row: ${text}`);
      for (const part of ['1.4.2', 'by io.github.example-org', 'Forecasts and current conditions from OpenWeatherMap', 'stdio', 'OPENWEATHER_API_KEY (secret, required)', 'https://github.com/example-org/weather-mcp']) {
        if (!text.includes(part)) throw new Error(`the row lacks "${part}": ${text}`);
      }
      if (!(await row('old-weather').innerText()).includes('deprecated')) throw new Error('the deprecated server is not marked');
      log(`  screenshot: ${await shot('gallery-search.png')}`);
    });

    let dialog;
    await checks.gate('Enter installs it: user servers first, then the review shows the whole entry before anything is written', async () => {
      const before = fs.readFileSync(userFile, 'utf8');
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Weather' }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'into which scope?' }).waitFor();
      const first = (await page.locator('.quick-input-list .monaco-list-row').first().innerText()).replace(/\s+/g, ' ');
      if (!first.startsWith('User servers')) throw new Error(`the first scope offered is not the user's: ${first}`);
      await page.keyboard.press('Enter');
      dialog = await ui.waitForDialog(page, /Install "weather" into User servers\?/);
      const shown = await dialog.innerText();
      log(`  review: ${shown.replace(/\s+/g, ' ').slice(0, 400)}`);
      for (const part of ['Runs (stdio): npx -y @example-org/weather-mcp@1.4.2 --units metric', 'Environment: OPENWEATHER_API_KEY="${input:weather-OPENWEATHER_API_KEY}"', 'Asks for a new value: weather-OPENWEATHER_API_KEY (secret)', `into ${userFile}`]) {
        if (!shown.includes(part)) throw new Error(`the review lacks "${part}":\n${shown}`);
      }
      if (fs.readFileSync(userFile, 'utf8') !== before) throw new Error('the file changed before Install was clicked');
      log(`  screenshot: ${await shot('gallery-review.png')}`);
    });

    await checks.check('Install writes the entry with the secret as an input (typed into a password box), the comment kept; the view shows it', async () => {
      await ui.clickDialogButton(dialog, 'Install');
      const box = page.locator('.quick-input-widget', { hasText: 'Your OpenWeatherMap API key' });
      await box.waitFor();
      if ((await page.locator('.quick-input-widget input').getAttribute('type')) !== 'password') throw new Error('the secret is not asked in a password box');
      await input.fill(SECRET);
      await page.keyboard.press('Enter');
      const written = await until('the entry in the user file', () => { const text = fs.readFileSync(userFile, 'utf8'); return text.includes('"weather"') && text; }, 15_000);
      if (!written.includes('// my own servers, kept by hand')) throw new Error(`the comment is gone:\n${written}`);
      if (written.includes(SECRET)) throw new Error('the secret is in the file');
      if (!written.includes('"OPENWEATHER_API_KEY": "${input:weather-OPENWEATHER_API_KEY}"')) throw new Error(`no input reference:\n${written}`);
      const pane = await ui.expandPane(page, 'Servers');
      await ui.waitForTreeNames(pane, ['weather'], 30_000);
      const description = await until('the row held by the flow\'s policy', async () => { const text = await treeDescription(pane, 'weather'); return /blocked by policy/.test(text ?? '') && text; }, 20_000);
      log(`  weather: ${description}`);
    });

    await checks.check('a pasted install link opens the same review with the whole definition; Cancel writes nothing', async () => {
      const before = fs.readFileSync(userFile, 'utf8');
      const definition = { name: 'linked', command: 'node', args: ['linked-server.js', '--flag'], env: { LINK_TOKEN: '${input:link-token}' }, inputs: [{ id: 'link-token', type: 'promptString', password: true }] };
      await palette('Install Server from Link');
      await page.locator('.quick-input-widget', { hasText: 'Paste an install link' }).waitFor();
      await input.fill(`vscode:mcp/install?${encodeURIComponent(JSON.stringify(definition))}`);
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'into which scope?' }).waitFor();
      await page.keyboard.press('Enter');
      const review = await ui.waitForDialog(page, /Install "linked" into User servers\?/);
      const shown = await review.innerText();
      for (const part of ['from an install link', 'Runs (stdio): node linked-server.js --flag', 'Environment: LINK_TOKEN="${input:linked-link-token}"', 'Asks for a new value: linked-link-token (secret; for ${input:link-token})']) {
        if (!shown.includes(part)) throw new Error(`the review lacks "${part}":\n${shown}`);
      }
      log(`  screenshot: ${await shot('install-link-review.png')}`);
      await ui.clickDialogButton(review, 'Cancel');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (fs.readFileSync(userFile, 'utf8') !== before) throw new Error('the link wrote the file without Install');
    });
  };

  await runWorkbenchFlow({
    name: 'gallery flow', timeoutMs, checks, log, shot, stateDir, flow,
    workbench: () => ({ browser, server }),
    cleanup: () => registry?.stop(),
  });
}
