// The files "Open … Servers" creates: each parses without a problem and carries the example it
// promises; the commented examples of the private files are valid entries once uncommented.
import * as assert from 'assert/strict';
import { localFileTemplate, PROJECT_FILE_TEMPLATE, USER_FILE_TEMPLATE } from '../../src/vscode/config/serverFileTemplates';
import { parseText, scopeSpec } from './helpers/config';

/** Removes the `// ` of every commented line inside the servers object, as a person uncommenting the examples would. */
function uncomment(text: string): string {
  return text.replace(/^( {4,})\/\/ (?!Uncomment)/gm, '$1');
}

const ENV = { DOCS_TOKEN: 'token-value' };

describe('server file templates', () => {
  it('the project file parses without problems and runs the memory example', () => {
    const layer = parseText(PROJECT_FILE_TEMPLATE, { vars: { env: ENV, userHome: '/home/ada', workspaceFolder: '/ws/app' } });
    assert.deepEqual(layer.problems, []);
    assert.deepEqual(layer.servers.map((s) => [s.name, s.launch.command, s.launch.args]), [['memory', 'npx', ['-y', '@modelcontextprotocol/server-memory']]]);
  });

  for (const [scope, text] of [['user', USER_FILE_TEMPLATE], ['local', localFileTemplate('app')]] as const) {
    it(`the ${scope} file parses without problems and starts nothing until an example is uncommented`, () => {
      const spec = scopeSpec(scope);
      const layer = parseText(text, { ...spec, vars: { ...spec.vars, env: ENV } });
      assert.deepEqual(layer.problems, []);
      assert.deepEqual(layer.servers, []);
      assert.match(text, /\/\/ {3}"command": "npx",/, 'a stdio example is shown');
      assert.match(text, /\/\/ {3}"type": "http",/, 'an http example is shown');
    });

    it(`the ${scope} file's examples are a stdio and an http server once uncommented`, () => {
      const spec = scopeSpec(scope);
      const layer = parseText(uncomment(text), { ...spec, vars: { ...spec.vars, env: ENV } });
      assert.deepEqual(layer.problems, []);
      assert.deepEqual(layer.servers.map((s) => [s.name, s.launch.type]), [['memory', 'stdio'], ['docs', 'http']]);
      assert.equal(layer.servers[1]?.launch.headers.Authorization, 'Bearer token-value');
    });
  }
});
