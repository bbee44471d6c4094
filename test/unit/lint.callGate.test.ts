// The lint rule that keeps every tool call on the gate: code outside src/core/calls (and the connection
// layers under it) that reaches for `callTool`, or for the registry's hand-over, fails `npm run lint`.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../../..');

async function ruleIds(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.map((message) => message.ruleId ?? message.message);
}

describe('lint: one call gate', function () {
  this.timeout(30_000);

  it('refuses a tool call around the gate anywhere in src/ and bench/', async () => {
    const bypass = 'declare const registry: { callTool(a: string): void };\nregistry.callTool(\'x\');\nexport {};\n';
    for (const file of ['src/vscode/chatParticipant.ts', 'src/cli/newCommand.ts', 'src/core/approvals/policy.ts', 'bench/other.ts']) {
      assert.deepEqual(await ruleIds(file, bypass), ['no-restricted-properties'], file);
    }
    const destructured = 'declare const registry: { callTool(a: string): void };\nconst { callTool } = registry;\ncallTool(\'x\');\nexport {};\n';
    assert.deepEqual(await ruleIds('src/vscode/lmTools.ts', destructured), ['no-restricted-properties']);
  });

  it('refuses taking the registry\'s caller outside the registry', async () => {
    const code = 'import { handOverToolCaller } from \'../core/calls\';\nexport const take = handOverToolCaller;\n';
    assert.ok((await ruleIds('src/vscode/sneaky.ts', code)).includes('no-restricted-syntax'));
  });

  it('lets the gate itself call', async () => {
    const code = 'declare const send: { callTool(a: string): void };\nsend.callTool(\'x\');\nexport {};\n';
    assert.deepEqual(await ruleIds('src/core/calls/other.ts', code), []);
  });
});
