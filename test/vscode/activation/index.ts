// Entry point of the activation measurement of the extension-host tier: test/vscode/run.mjs opens five
// fresh VS Code windows on the fixture, each with its own extension host, and runs the one suite in this
// folder in each; it reads the activation time each window reported and prints their median.
import { runTestsIn } from '../index';

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}
