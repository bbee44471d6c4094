// The extension activates once VS Code has finished starting, or sooner when a person opens one of its
// views or follows one of its links (chat and commands add their own implicit events): an event that
// fires while the window starts (`*`, `workspaceContains:…`) would load its modules and run `activate`
// amid the window's own startup, on the extension host every other extension shares. So the manifest's
// events are checked against the ones understood here, and anything else is named.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const MANIFEST = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: { views: Record<string, { id: string }[]> };
};

describe('activation events', () => {
  const views = new Set(Object.values(MANIFEST.contributes.views).flat().map((view) => view.id));

  it('are only startup finished, a link, or a view of this extension', () => {
    const understood = (event: string): boolean =>
      event === 'onStartupFinished' || event === 'onUri' || (event.startsWith('onView:') && views.has(event.slice('onView:'.length)));
    assert.deepEqual(MANIFEST.activationEvents.filter((event) => !understood(event)), []);
  });

  it('include startup finished and every view the extension contributes', () => {
    assert.ok(MANIFEST.activationEvents.includes('onStartupFinished'));
    for (const id of views) assert.ok(MANIFEST.activationEvents.includes(`onView:${id}`), `no onView:${id}`);
  });
});
