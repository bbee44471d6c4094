// Nothing of the Sidebar is clipped at any width from 150 px: the built page (dist/webview.js and
// media/sidebar.css, as the extension serves them) with a waiting card, its mode dropdown, and the
// history's filter, in Chromium at 150 to 480 px, each element inside the view and no box wider than
// itself. VS Code's side bar goes down to 170 px; the page is checked narrower, for the scroll bar and
// themes with larger fonts. No VS Code: the page alone, with a stand-in for the webview's host.
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../harness/browser.mjs';
import { repoRoot } from '../harness/paths.mjs';

const WIDTHS = [150, 160, 170, 200, 240, 300, 480];
/** What must stay whole in the view at every width. */
const WANTED = ['[data-testid="approval-card"]', '[data-testid="approval-approve"]', '[data-testid="approval-reject"]', '[data-testid="approval-reason-input"]', '[data-testid="approval-mode"]', '[data-testid="history-decision"]'];

const card = {
  id: 'c1', serverId: 'filesystem', serverName: 'filesystem', tool: 'write_file', qualifiedName: 'mcp__filesystem__write_file', serverTrusted: true,
  reason: 'it would change files in the workspace', args: { path: '/workspace/notes/shopping-list.md', content: '- bread\n- oranges\n' },
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } }, createdAt: 1, caller: 'chat',
};
const history = [{
  id: 'h1', at: 1, server: 'filesystem', tool: 'read_file', argsText: '{"path":"/workspace/notes/shopping-list.md"}', decision: 'allow', ran: true,
  decidedBy: 'mode: accept everything', reason: 'the mode accepts every call', durationMs: 12, ranMs: 11, caller: 'chat',
}];
const snapshot = { servers: [], shadowed: [], problems: [], elicitations: [], sampling: [], generatedAt: 1, approvals: { mode: 'acceptEverything', pending: [card], rules: [], history } };

/** The page as the webview shows it, with VS Code's theme variables for the font. */
function pageHtml() {
  const css = fs.readFileSync(path.join(repoRoot, 'media', 'sidebar.css'), 'utf8');
  const script = fs.readFileSync(path.join(repoRoot, 'dist', 'webview.js'), 'utf8').replace(/<\/script/gi, '<\\/script');
  const host = `window.acquireVsCodeApi = () => ({
    postMessage(message) { if (message.type === 'ready') setTimeout(() => window.postMessage({ type: 'snapshot', snapshot: ${JSON.stringify(snapshot)} }, '*'), 0); },
    getState() { return undefined; },
    setState() {},
  });`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<style>:root { --vscode-font-family: system-ui, sans-serif; --vscode-font-size: 13px; --vscode-editor-font-family: monospace; }</style>
<style>${css}</style></head><body><main id="app" aria-busy="true"></main><script>${host}</script><script>${script}</script></body></html>`;
}

/** Runs the checks into `checks`. Options: resultsDir, log. */
export async function sidebarWidthsFlow({ checks, resultsDir, log }) {
  const browser = await launchBrowser({ viewport: { width: 480, height: 1200 } });
  try {
    await checks.check(`the Sidebar page at ${WIDTHS.join(', ')} px: the card, its answers, the mode dropdown and the history filter stay whole in the view; nothing scrolls sideways`, async () => {
      const { page } = browser;
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 1200 });
        await page.setContent(pageHtml());
        await page.locator('#app[aria-busy="false"] [data-testid="approval-mode"]').waitFor({ timeout: 10_000 });
        const found = await page.locator('body').evaluate((body, wanted) => {
          const document = body.ownerDocument;
          const view = document.documentElement.clientWidth;
          const out = [];
          for (const selector of wanted) {
            const element = document.querySelector(selector);
            if (!element) { out.push(`${selector} is missing`); continue; }
            const box = element.getBoundingClientRect();
            if (box.left < -0.5 || box.right > view + 0.5) out.push(`${selector} spans ${Math.round(box.left)}–${Math.round(box.right)} px of a ${view} px view`);
            if (element.scrollWidth > element.clientWidth + 1) out.push(`${selector} is wider than its box`);
            // A dropdown cuts its chosen label without saying so: the label must fit the box.
            if (element.tagName === 'SELECT') {
              const label = element.options[element.selectedIndex]?.text ?? '';
              const probe = document.createElement('span');
              probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font:${document.defaultView.getComputedStyle(element).font}`;
              probe.textContent = label;
              document.body.append(probe);
              const style = document.defaultView.getComputedStyle(element);
              const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
              if (probe.getBoundingClientRect().width > room) out.push(`${selector} cuts its label "${label}" (${Math.round(probe.getBoundingClientRect().width)} px in ${Math.round(room)} px)`);
              probe.remove();
            }
          }
          if (document.documentElement.scrollWidth > view + 1) out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
          return out;
        }, WANTED);
        if (width === 150) await page.screenshot({ path: path.join(resultsDir, 'sidebar-150px.png'), fullPage: true });
        if (found.length > 0) throw new Error(`at ${width} px: ${found.join('; ')}`);
        log(`  ${width} px: all whole`);
      }
    });
  } finally {
    await browser.close();
  }
}
