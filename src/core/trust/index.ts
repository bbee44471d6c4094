// The public API of the trust core: danger flags (and the command-line, address, path and package
// readers behind them), git remotes, and the trust store and the decision built on it (tool pins and
// poisoning scans: ../toolReview). Other rooms import from here, not from the individual files.
export * from './addresses';
export * from './commandLine';
export * from './dangerFlags';
export * from './execVariables';
export * from './gitRemote';
export * from './launchDiff';
export * from './promptHold';
export * from './promptText';
export * from './runnerConfigFlags';
export * from './secretDigest';
export * from './trustDecision';
export * from './trustGate';
export * from './trustPrompts';
export * from './trustStore';
export * from './typosquat';
export * from './workspacePaths';
