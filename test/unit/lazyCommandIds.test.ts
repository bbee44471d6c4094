// What registers at activation with a thin handler (commands, the chat participant, its tools) is named
// by strings in src/vscode/lazyCommandIds.ts, so that the modules behind them load on first use. Those
// strings must stay what package.json contributes and what each module registers: a command renamed in
// one place only would be registered twice, or never get its real handler.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHAT_PARTICIPANT_ID, CHAT_TOOL_NAMES, LAZY_COMMAND_IDS, LAZY_TEST_COMMAND_IDS } from '../../src/vscode/lazyCommandIds';

const ROOT = path.resolve(__dirname, '../../..');
const MANIFEST = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[]; chatParticipants: { id: string }[]; languageModelTools: { name: string }[] };
};
/** Each module's source, by the name the table uses. */
const MODULES: Record<keyof typeof LAZY_COMMAND_IDS, string> = {
  signInCommands: 'src/vscode/servers/signInCommands.ts',
  callToolCommand: 'src/vscode/servers/callToolCommand.ts',
  importServers: 'src/vscode/install/importServers.ts',
  gallery: 'src/vscode/install/gallery.ts',
  installLinks: 'src/vscode/install/installLinks.ts',
  chatCommands: 'src/vscode/chat/chatCommands.ts',
  apps: 'src/vscode/apps/appCommands.ts',
};

const source = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('lazily loaded registrations', () => {
  it('are commands package.json contributes', () => {
    const contributed = new Set(MANIFEST.contributes.commands.map((c) => c.command));
    const missing = Object.values(LAZY_COMMAND_IDS).flat().filter((id) => !contributed.has(id));
    assert.deepEqual(missing, []);
  });

  it('name the commands each module registers, test-only ones included', () => {
    for (const [module, file] of Object.entries(MODULES) as [keyof typeof LAZY_COMMAND_IDS, string][]) {
      const text = source(file);
      const ids = [...LAZY_COMMAND_IDS[module], ...((LAZY_TEST_COMMAND_IDS as Partial<Record<string, readonly string[]>>)[module] ?? [])];
      for (const id of ids) assert.ok(text.includes(`'${id}'`), `${file} does not name ${id}`);
      // Every command the module declares (a `…_COMMAND` constant or an entry of a table of them) is listed.
      const declared = [...text.matchAll(/^\s*(?:export )?const [A-Z_]+_COMMAND = '([^']+)'|^\s+\w+: '(_?switchboard\.[^']+)',/gm)].map((m) => m[1] ?? m[2]);
      assert.deepEqual([...declared].sort(), [...ids].sort(), `${file} declares other commands than the table lists`);
    }
  });

  it('are the participant and the language-model tools package.json contributes', () => {
    assert.deepEqual(MANIFEST.contributes.chatParticipants.map((p) => p.id), [CHAT_PARTICIPANT_ID]);
    assert.deepEqual([...MANIFEST.contributes.languageModelTools.map((t) => t.name)].sort(), [...CHAT_TOOL_NAMES].sort());
  });
});
