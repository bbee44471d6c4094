// The sidebar page's entry: the app in #app, talking to VS Code.
import { startApp } from './app';
import { connectHost } from './host';

const root = document.getElementById('app');
if (!root) throw new Error('The sidebar page has no #app element.');
startApp(root, connectHost());
