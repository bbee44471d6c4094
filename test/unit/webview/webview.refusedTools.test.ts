// A ready server's row in the Sidebar names the tools the host refused (a schema nested too deep),
// with the reasons, next to the tools it offers.
import * as assert from 'node:assert/strict';
import { EMPTY_APPROVALS_VIEW } from '../../../src/protocol/approvals';
import type { ServerRow, SidebarSnapshot } from '../../../src/protocol/sidebar';
import type { Actions } from '../../../webview/render';
import { useDom } from './dom';

type RenderModule = typeof import('../../../webview/render');

const row: ServerRow = {
  id: 'deep', name: 'deep', scope: 'user', transport: 'stdio', state: 'ready', stateLabel: 'ready',
  launchSummary: 'node deep-schema.mjs', source: { file: '/home/ada/.mcp.json', line: 3, column: 5 },
  needsTrust: false, disabled: false, canRestart: true, fingerprint: 'fp',
  counts: { tools: 1, resources: 0, resourceTemplates: 0, prompts: 0 },
  refusedTools: [{ name: 'deep', reason: 'its input schema is nested more than 64 levels deep' }, { name: 'deep-output', reason: 'its output schema is nested more than 64 levels deep' }],
};
const snapshot: SidebarSnapshot = { servers: [row], shadowed: [], problems: [], approvals: EMPTY_APPROVALS_VIEW, elicitations: [], sampling: [], generatedAt: 1 };

describe('webview render: refused tools', () => {
  useDom();
  let mod: RenderModule;
  before(async () => { mod = await import('../../../webview/render'); });

  it('marks the row with the count and lists each refused tool with its reason', () => {
    const root = document.createElement('main');
    document.body.replaceChildren(root);
    mod.render(root, { snapshot, ui: { version: 1, collapsed: [] }, notice: undefined }, new Proxy({}, { get: () => () => undefined }) as Actions);
    const marker = root.querySelector<HTMLElement>('[data-testid="server-tools-refused"]');
    assert.ok(marker, 'a refused marker');
    assert.equal(marker.dataset.count, '2');
    assert.match(marker.textContent ?? '', /2 refused/);
    assert.equal(marker.title, '2 tools refused, left out of the catalog:\ndeep: its input schema is nested more than 64 levels deep\ndeep-output: its output schema is nested more than 64 levels deep');
    mod.render(root, { snapshot: { ...snapshot, servers: [{ ...row, refusedTools: undefined }] }, ui: { version: 1, collapsed: [] }, notice: undefined }, new Proxy({}, { get: () => () => undefined }) as Actions);
    assert.equal(root.querySelector('[data-testid="server-tools-refused"]'), null, 'no marker without refused tools');
  });
});
