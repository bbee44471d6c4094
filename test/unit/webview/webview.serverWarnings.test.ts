// A ready server whose listing failed says so in its Sidebar row (not just "0 tools"), and a failed
// server whose stderr named a missing variable shows the hint under its reason.
import * as assert from 'node:assert/strict';
import { EMPTY_APPROVALS_VIEW } from '../../../src/protocol/approvals';
import type { ServerRow, SidebarSnapshot } from '../../../src/protocol/sidebar';
import type { Actions } from '../../../webview/render';
import { useDom } from './dom';

type RenderModule = typeof import('../../../webview/render');

const ready: ServerRow = {
  id: 'flaky', name: 'flaky', scope: 'user', transport: 'stdio', state: 'ready', stateLabel: 'ready',
  launchSummary: 'node list-fails.mjs', source: { file: '/home/ada/.mcp.json', line: 3, column: 5 },
  needsTrust: false, disabled: false, canRestart: true, fingerprint: 'fp',
  counts: { tools: 0, resources: 0, resourceTemplates: 0, prompts: 1 },
  warnings: ['tools/list failed: MCP error -32603: the tool index is not built', 'resources/list failed: MCP error -32601: Method not found'],
};
const failed: ServerRow = {
  ...ready, id: 'brave', name: 'brave', state: 'failed', stateLabel: 'failed', counts: undefined, warnings: undefined,
  stateReason: 'process exited with code 1 during startup',
  stateHint: 'set BRAVE_API_KEY: add it to the "env" of "brave" in /home/ada/.mcp.json (user scope)',
};
const snapshot = (servers: ServerRow[]): SidebarSnapshot => ({ servers, shadowed: [], problems: [], approvals: EMPTY_APPROVALS_VIEW, elicitations: [], sampling: [], generatedAt: 1 });
const noActions = new Proxy({}, { get: () => () => undefined }) as Actions;

describe('webview render: server warnings and hints', () => {
  useDom();
  let mod: RenderModule;
  before(async () => { mod = await import('../../../webview/render'); });

  it('marks a ready server with the failed listing, every warning in the tooltip', () => {
    const root = document.createElement('main');
    document.body.replaceChildren(root);
    mod.render(root, { snapshot: snapshot([ready]), ui: { version: 1, collapsed: [] }, notice: undefined }, noActions);
    const marker = root.querySelector<HTMLElement>('[data-testid="server-warning"]');
    assert.ok(marker, 'a warning marker');
    assert.equal(marker.dataset.count, '2');
    assert.equal(marker.textContent?.trim(), 'tools/list failed (+1)');
    assert.equal(marker.title, ready.warnings!.join('\n'));
    assert.equal(root.querySelector('[data-testid="server-state"]')?.textContent, 'ready');
    mod.render(root, { snapshot: snapshot([{ ...ready, warnings: undefined }]), ui: { version: 1, collapsed: [] }, notice: undefined }, noActions);
    assert.equal(root.querySelector('[data-testid="server-warning"]'), null, 'no marker without warnings');
  });

  it('shows the hint of a failed server under its reason', () => {
    const root = document.createElement('main');
    document.body.replaceChildren(root);
    mod.render(root, { snapshot: snapshot([failed]), ui: { version: 1, collapsed: [] }, notice: undefined }, noActions);
    assert.equal(root.querySelector('[data-testid="server-error"]')?.textContent, failed.stateReason);
    assert.equal(root.querySelector('[data-testid="server-hint"]')?.textContent, failed.stateHint);
  });
});
