// The public API of the administrator's policy.
export * from './types';
export { evaluatePolicy, glob, matches } from './match';
export { combinePolicies, parsePolicyFile, policyFromSettings, type PolicyProblem, type RawPolicy } from './parse';
export { managedPolicyFile } from './locations';
