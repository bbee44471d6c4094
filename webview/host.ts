// The page's one handle on VS Code. `acquireVsCodeApi` may be called only once per page.
import type { HostToWebviewMessage, WebviewToHostMessage } from '../src/protocol/sidebarMessages';
import { isHostToWebviewMessage } from '../src/protocol/sidebarMessages';

declare function acquireVsCodeApi(): {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
};

export interface Host {
  post(message: WebviewToHostMessage): void;
  /** Whatever the last `setState` stored, from this or an earlier load of the page; check it before use. */
  getState(): unknown;
  setState(state: unknown): void;
  /** Calls `listener` for every well-formed message from the extension. */
  onMessage(listener: (message: HostToWebviewMessage) => void): void;
}

export function connectHost(): Host {
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    getState: () => api.getState(),
    setState: (state) => api.setState(state),
    onMessage: (listener) => {
      window.addEventListener('message', (event: MessageEvent<unknown>) => {
        if (isHostToWebviewMessage(event.data)) listener(event.data);
      });
    },
  };
}
