// The public API of the config core. Other rooms import from here, not from the individual files.
export * from './types';
export { MAX_CONFIG_BYTES, type ConfigFileSystem } from './ports';
export { parseLayer } from './parse';
export { expandVariables, expandHome, type Expansion, type VariableIssue } from './variables';
export { fingerprint, canonicalJson } from './fingerprint';
export { MAX_ENV_FILE_BYTES, envFileFolder, envFilePath, readsEnvFile, withEnvFileVars, type EnvFileSupport } from './envFiles';
export {
  MAX_RUNNER_FILE_BYTES, PACKAGE_RUNNERS, describeRunnerFile, folderHolding, launchCwd, readRunnerConfig, runnerConfigCandidates,
  runnerFileKind, runnersOf, settingNames, type PackageRunner, type RunnerConfigSupport, type RunnerFileFormat, type RunnerFileKind,
} from './runnerConfig';
export { withRunnerConfig, withWorkspaceReads, workspaceReadFiles } from './workspaceReads';
export { inputIdsOf, inputsNeededBy, substituteInputs, withInputValues } from './inputs';
export { compareEffectiveServers, mergeLayers } from './merge';
export { standardLayerSpecs, type StandardLayerOptions } from './layerSpecs';
export { ConfigService, toSnapshot, type ConfigSnapshot, type ConfigServiceOptions } from './service';
export {
  hasToolFilter, isToolOffered, sameToolFilter, toolFilterVerdict, toolPatternMatches,
  type ToolFilterSource, type ToolFilterVerdict,
} from './toolFilter';
