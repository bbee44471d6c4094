// One fresh window's activation time, as the extension measures it and reports it through its API
// (from VS Code calling activate until it returned), and the time its modules took to load before:
// written next to the window's results for test/vscode/run.mjs, which takes the medians over the windows.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';

const EXTENSION_ID = 'mcp-switchboard.mcp-switchboard';

/** Where run.mjs reads this window's activation time. */
export function activationFileOf(resultsFile: string): string {
  return resultsFile.replace(/\.json$/, '.activation.json');
}

describe('activation time', () => {
  it('is reported through the API of a freshly activated extension', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not installed in this VS Code`);
    // Its activation events activate it on their own, as in a user's window (startup finished): this
    // waits for that rather than activating it, which would measure it amid the window's own startup.
    const deadline = Date.now() + 60_000;
    while (!ext.isActive && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(ext.isActive, 'no activation event activated the extension within 60 s');
    const api = ext.exports as { activationMs?: unknown; moduleLoadMs?: unknown } | undefined;
    const activationMs = api?.activationMs;
    const moduleLoadMs = api?.moduleLoadMs;
    assert.equal(typeof moduleLoadMs, 'number', 'the API reports moduleLoadMs');
    assert.equal(typeof activationMs, 'number', 'the API reports activationMs');
    assert.ok((activationMs as number) >= 0, `activationMs = ${String(activationMs)}`);
    console.log(`activation time in this window: ${String(activationMs)} ms (modules loaded in ${String(moduleLoadMs)} ms before)`);
    const results = process.env.SWITCHBOARD_TEST_RESULTS;
    if (results) fs.writeFileSync(activationFileOf(results), JSON.stringify({ activationMs, moduleLoadMs }));
  });
});
