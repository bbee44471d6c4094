// Approvals: the policy that decides a tool call, the person's rules, and the record of every call.
export * from './callHistory';
export * from './policy';
export * from './rules';
export * from './approvalBroker';
