// The public API of the trust core: danger flags (and the command-line, address, path and package
// readers behind them), git remotes, tool pins and poisoning scans, and the trust and pin stores and the
// decision built on them. Other rooms import from here, not from the individual files.
export * from './addresses';
export * from './commandLine';
export * from './dangerFlags';
export * from './gitRemote';
export * from './launchDiff';
export * from './pinStore';
export * from './poisoning';
export * from './promptHold';
export * from './promptText';
export * from './runnerConfigFlags';
export * from './secretDigest';
export * from './toolPin';
export * from './toolReview';
export * from './trustDecision';
export * from './trustGate';
export * from './trustPrompts';
export * from './trustStore';
export * from './typosquat';
export * from './workspacePaths';
export * from './outputScan';
