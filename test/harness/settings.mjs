// User settings for every VS Code the tests start: deterministic UI, no welcome page, no chat, no
// telemetry, no update or marketplace chatter. Runners merge their own settings over these.
export const quietSettings = Object.freeze({
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'json.schemaDownload.enable': false,
  'npm.fetchOnlinePackageInfo': false,
  'typescript.disableAutomaticTypeAcquisition': true,
  'security.workspace.trust.enabled': false,
  // VS Code's own MCP off for workspace files, so that no flow meets MCP Switchboard's modal "who hosts
  // them" question after its trust prompt; the coexistence flow (test/e2e/coexist.mjs) and `npm start`
  // set "all" again, as VS Code ships.
  'chat.mcp.access': 'registry',
});
