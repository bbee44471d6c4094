// Entry point of the Restricted Mode pass of the extension-host tier: test/vscode/run.mjs starts a
// second VS Code with workspace trust on (the fixture opens in Restricted Mode) and runs the suites in
// this folder only. The main pass (../index.ts) does not see them: it reads its own folder only.
import { runTestsIn } from '../index';

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}
