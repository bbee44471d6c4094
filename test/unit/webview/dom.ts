// A real DOM (happy-dom) for the webview's tests, registered on the global object for one suite and
// removed after it, so the other unit tests keep plain Node. The webview's modules must be loaded
// after `useDom()` has registered it (they define custom elements when loaded).
import { GlobalRegistrator } from '@happy-dom/global-registrator';

/** Registers the DOM before the calling suite's tests and removes it after them. */
export function useDom(): void {
  before(async () => {
    GlobalRegistrator.register({ url: 'https://webview.test/index.html' });
    addElementInternals();
    // lit-html finds the document when it loads: only after the DOM is registered.
    litRender = (await import('lit-html')).render;
  });
  after(async () => {
    await GlobalRegistrator.unregister();
  });
}

/** Lets custom elements and microtasks settle. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * happy-dom has no ElementInternals. `<vscode-button>` attaches one in its constructor and only reports
 * its form value and form through it; outside a form (as in the sidebar) that is all it needs, so an
 * element here gets internals with no form. The real browser's are exercised by the e2e tier.
 */
function addElementInternals(): void {
  const proto: { attachInternals?: unknown } = HTMLElement.prototype;
  if (typeof proto.attachInternals === 'function') return;
  Object.defineProperty(HTMLElement.prototype, 'attachInternals', {
    configurable: true,
    value: () => ({ form: null, setFormValue: () => undefined }),
  });
}

let litRender: ((value: unknown, container: HTMLElement) => unknown) | undefined;

/** Renders a template into a fresh container in the document and returns its first element. */
export function mount(template: unknown): HTMLElement {
  const render = litRender;
  if (!render) throw new Error('mount() needs useDom() in its suite');
  const container = document.createElement('div');
  document.body.replaceChildren(container);
  render(template, container);
  const element = container.firstElementChild;
  if (!(element instanceof HTMLElement)) throw new Error('the template rendered no element');
  return element;
}
