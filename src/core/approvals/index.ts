// The public API of the approvals core so far: command signatures for "Always allow" on shell-like
// tools, and which tool argument is a shell command. Other rooms import from here.
export * from './commandSignatures';
export * from './shellSyntax';
export * from './shellTool';
export { quoteWords } from './reading';
