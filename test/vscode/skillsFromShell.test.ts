// Skills made outside the editor, the way a shell makes them: `mkdir -p` and a write with node:fs, in
// folders that did not exist when VS Code started (no `.claude` in the fixture workspace, no `.agents`
// in its home). Each must reach the configuration within 2 s, with no reload command and no editor
// involved; an edit and a deletion likewise.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import type { SwitchboardApi } from '../../src/extension';
import { fixtureHome, fixtureIsLoaded, fixtureWorkspace, switchboardApi, waitFor } from './configTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

/** What the issue allows between the write and the skill's servers in the configuration. */
const SEEN_WITHIN_MS = 2000;

const skillText = (name: string, servers: string[]): string => [
  '---',
  `name: ${name}`,
  'description: Greets, from a skill written by a shell.',
  'mcpServers:',
  ...servers.flatMap((server) => [`  ${server}:`, '    command: switchboard-fixture-missing-command']),
  '---',
  'Say hello.',
  '',
].join('\n');

describe('Skills created, changed and deleted outside VS Code are seen', function () {
  ensureNoLeakedDisposables();
  this.timeout(30_000);
  let api: SwitchboardApi;
  const ids = (): string[] => api.getConfig().servers.map((server) => server.id);

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
  });

  for (const where of ['workspace', 'home'] as const) {
    const top = where === 'workspace' ? '.claude' : '.agents';
    const base = (): string => (where === 'workspace' ? fixtureWorkspace() : fixtureHome());
    const name = `greeter-${where}`;

    it(`sees a ${where} skill whose folders a shell creates (${top}/skills/${name}/SKILL.md), then its edit and its deletion`, async () => {
      assert.equal(fs.existsSync(path.join(base(), top)), false, `${top} must not exist at start for this test to mean anything`);
      const dir = path.join(base(), top, 'skills', name);
      try {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'SKILL.md'), skillText(name, ['hello']));
        await waitFor(`${name}.hello in the configuration`, () => ids().includes(`${name}.hello`), SEEN_WITHIN_MS);

        fs.writeFileSync(path.join(dir, 'SKILL.md'), skillText(name, ['hello', 'wave']));
        await waitFor(`${name}.wave after the edit`, () => ids().includes(`${name}.wave`), SEEN_WITHIN_MS);

        fs.rmSync(dir, { recursive: true, force: true });
        await waitFor(`${name}'s servers gone after the deletion`, () => !ids().some((id) => id.startsWith(`${name}.`)), SEEN_WITHIN_MS);
      } finally {
        fs.rmSync(path.join(base(), top), { recursive: true, force: true });
      }
    });
  }
});
