// The sidebar page: says `ready`, renders every snapshot the extension posts, and turns clicks into
// typed requests.
import type { OpenSourceParams, SidebarCommand } from '../src/protocol/sidebarMessages';
import type { SidebarSnapshot } from '../src/protocol/sidebar';
import { connectHost } from './host';
import { render, type Actions } from './render';
import { RpcClient } from './rpc';
import { readUiState, toggleSection, type UiState } from './state';

const root = document.getElementById('app');
if (!root) throw new Error('The sidebar page has no #app element.');

const host = connectHost();
const rpc = new RpcClient((message) => host.post(message));
let snapshot: SidebarSnapshot | undefined;
let ui: UiState = readUiState(host.getState());
let notice: string | undefined;

const update = (): void => render(root, { snapshot, ui, notice }, actions);

function ask(promise: Promise<unknown>, failure: string): void {
  if (notice !== undefined) {
    notice = undefined;
    update();
  }
  promise.catch((error: unknown) => {
    notice = `${failure}: ${error instanceof Error ? error.message : String(error)}`;
    update();
  });
}

const actions: Actions = {
  openSource: (params: OpenSourceParams) => ask(rpc.request('openSource', params), 'Could not open the definition'),
  runCommand: (command: SidebarCommand) => ask(rpc.request('runCommand', { command }), 'Could not run the command'),
  serverAction: (serverId, action) => ask(rpc.request('serverAction', { serverId, action }), `Could not ${action === 'showLogs' ? 'show the logs' : action} ${serverId}`),
  toggleSection: (id) => {
    ui = toggleSection(ui, id);
    host.setState(ui);
    update();
  },
  dismissNotice: () => {
    notice = undefined;
    update();
  },
};

host.onMessage((message) => {
  switch (message.type) {
    case 'snapshot':
      snapshot = message.snapshot;
      update();
      return;
    case 'response':
    case 'error':
      rpc.settle(message);
      return;
    default: {
      const unexpected: never = message;
      throw new Error(`Unexpected message: ${JSON.stringify(unexpected)}`);
    }
  }
});

update();
host.post({ type: 'ready' });
