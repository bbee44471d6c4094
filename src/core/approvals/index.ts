// Approvals: the policy that decides a tool call, the person's rules, the broker where a call waits
// for the person, the record of every call, and which tools are shell-like (their command signatures
// for "Always allow": ../shell). Other rooms import from here (file previews: ./preview).
export * from './approvalBroker';
export * from './callHistory';
export * from './policy';
export * from './rules';
export * from './argumentRules';
export * from './rulePaths';
export * from './serverIdentity';
export * from '../shell/syntax';
export * from './shellTool';
export * from './approvalStep';
export * from './callDecision';
export * from './callRecords';
export * from './callRecorder';
export * from './approvalsView';
export * from './approvalNotice';
