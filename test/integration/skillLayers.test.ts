// Skills on real files: the SKILL.md files in a workspace's and a home's skill folders (found by the
// Node lister) become layers of the config service; an edit is followed, broken YAML is a problem at
// its line while the last good servers stay, and a workspace skill's servers need trust.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigService, standardLayerSpecs, type ConfigSnapshot } from '../../src/core/config';
import { skillLayerSpecs } from '../../src/core/skills';
import { NodeConfigFileSystem } from '../../src/node/configFileSystem';
import { skillFolders } from '../../src/node/skillFolders';
import { TempDirs, waitFor, write } from './support';

const skillText = (name: string, command: string): string => `---\nname: ${name}\ndescription: A test skill.\nmcpServers:\n  tool:\n    command: ${command}\n    args: [--serve]\n---\nDo the thing.\n`;

describe('skills as config layers on real files', function () {
  this.timeout(20000);
  const temp = new TempDirs();
  let service: ConfigService | undefined;
  let latest: ConfigSnapshot | undefined;

  afterEach(() => {
    service?.dispose();
    service = undefined;
    temp.cleanup();
  });

  it('reads workspace and personal skills, follows an edit, and keeps the last good servers on broken YAML', async () => {
    const root = temp.make();
    const ws = path.join(root, 'ws');
    const home = path.join(root, 'home');
    const projectSkill = write(path.join(ws, '.github', 'skills', 'deploy', 'SKILL.md'), skillText('deploy', 'deploy-server'));
    write(path.join(home, '.claude', 'skills', 'notes', 'SKILL.md'), skillText('notes', 'notes-server'));
    fs.mkdirSync(path.join(ws, '.claude', 'skills', 'empty-folder'), { recursive: true });
    assert.deepEqual(skillFolders(path.join(ws, '.claude', 'skills')), [], 'a folder without SKILL.md is no skill');

    service = new ConfigService(new NodeConfigFileSystem(), { throttleMs: 50 });
    service.onDidChange((snapshot) => { latest = snapshot; });
    await service.setSpecs([
      ...standardLayerSpecs({ folders: [{ path: ws }], userHome: home, env: {} }),
      ...skillLayerSpecs({ folders: [ws], userHome: home, env: {}, skillFolders }),
    ]);
    const first = service.current;
    assert.deepEqual(first.servers.map((s) => [s.id, s.scope, s.needsTrust, s.launch.command]), [
      ['deploy.tool', 'project', true, 'deploy-server'],
      ['notes.tool', 'user', false, 'notes-server'],
    ]);
    assert.deepEqual(first.problems, []);

    write(projectSkill, skillText('deploy', 'deploy-server-v2'));
    await waitFor('the edit to be read', () => latest?.servers.find((s) => s.id === 'deploy.tool')?.launch.command === 'deploy-server-v2');

    write(projectSkill, '---\nname: deploy\nmcpServers:\n  tool: {command: [oops\n---\n');
    await waitFor('the broken file to be reported', () => (latest?.problems.length ?? 0) > 0);
    const [problem] = latest!.problems;
    assert.equal(problem.file, projectSkill);
    assert.equal(problem.code, 'skill-yaml');
    assert.ok(problem.line >= 4, `at line ${problem.line}`);
    assert.equal(latest!.servers.find((s) => s.id === 'deploy.tool')?.launch.command, 'deploy-server-v2', 'the last good definition stays');
  });
});
