// The public API of the lifecycle core.
export * from './state';
export * from './types';
export type * from './ports';
export { systemClock, formatDuration, type Clock } from './clock';
export { DEFAULT_LIFECYCLE_SETTINGS, mergeSettings, type LifecycleSettings } from './settings';
export { ConnectError, ConnectionClosedError, ServerNotRunningError, SignInRequiredError, errorMessage, stderrTailOf } from './errors';
export { MutableSlot } from './slot';
export { startupTimeoutMessage } from './startAttempt';
export {
  CATALOG_KINDS, DEFAULT_MAX_PAGES, CatalogLoader, catalogKey, emptyCatalog, listAll, sortCatalogItems,
  type CatalogLoaderOptions, type ListAllOptions,
} from './catalog';
export {
  ServerController, type CallOptions, type CatalogChange, type GetPromptResult, type ReadResourceResult,
  type ServerControllerOptions, type ServerStateChange, type ServerView,
} from './serverController';
export { ServerRegistry, type ServerRegistryOptions } from './registry';
export type { ResourceUpdate } from './resourceWatchAccess';
export {
  REDACTED, argSecrets, isRedactable, isSecretName, quoteWord, redactArgs, redactCommandLine, redactLaunch, redactText, redactUrl, secretsOf,
} from './redact';
export { SecretSet, redactError, redactValue, redactingConnection, redactingLog, secretForms, type Secrets } from './redactConnection';
export { RedactingConnector } from './redactingConnector';
export { STDERR_EXCERPT_LINES, failureHint, failureSummary, missingVariable, serverFailureHint, statesCause, stderrExcerpt, type HintEntry } from './stderrCause';
export { LIST_METHODS, listingWarnings, serverWarnings } from './listingWarnings';
export { DeferredConnector, type DisposableConnector } from './deferredConnector';
export { startupSummaryLine, summarize, type StartupSummary } from './summary';
export { StartRefusedError, type AskTrust, type StartRefusal, type StartResult } from './startRequest';
export { decideRun, type DefinitionFacts, type GateAnswer, type RunDecision, type RunQuestion, type RunningFacts } from './runDecision';
