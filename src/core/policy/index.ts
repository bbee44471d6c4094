// The public API of the administrator's policy.
export * from './types';
export { evaluatePolicy, glob } from './match';
export { readLaunch } from './readLaunch';
export type { LaunchedPackage, LaunchReading } from './launchReading';
export { normalizeUrl } from './urls';
export { combinePolicies, parsePolicyFile, policyFromSettings, type PolicyProblem, type RawPolicy } from './parse';
export { managedPolicyFile } from './locations';
