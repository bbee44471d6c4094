// Approvals: the policy that decides a tool call, the person's rules, the broker where a call waits
// for the person, the record of every call, and command signatures for "Always allow" on shell-like
// tools. Other rooms import from here (file previews: ./preview).
export * from './approvalBroker';
export * from './callHistory';
export * from './commandSignatures';
export * from './policy';
export * from './rules';
export * from './argumentRules';
export * from './rulePaths';
export * from './serverIdentity';
export * from '../shell/syntax';
export * from './shellTool';
export { quoteWords } from './reading';
export * from './approvalStep';
export * from './callDecision';
export * from './callRecords';
export * from './callRecorder';
export * from './approvalsView';
