// The commands registered at activation with a thin handler whose module loads on first use
// (surfaces.ts, lazyCommands.ts), by module. Strings, not the modules' constants: importing a constant
// would load its module at activation. A unit test checks these against package.json and the modules.
export const LAZY_COMMAND_IDS = {
  signInCommands: ['switchboard.signIn', 'switchboard.signOut'],
  callToolCommand: ['switchboard.callTool'],
  importServers: ['switchboard.importServers'],
  gallery: ['switchboard.browseServers'],
  installLinks: ['switchboard.installFromLink'],
} as const;

/** Test-only commands of the same modules, registered only in extension test runs. */
export const LAZY_TEST_COMMAND_IDS = {
  signInCommands: ['_switchboard.test.scriptSignInBrowser', '_switchboard.test.signInPages'],
  importServers: ['_switchboard.test.answerImport'],
  gallery: ['_switchboard.test.installFromGallery'],
  installLinks: ['_switchboard.test.handleInstallUri'],
} as const;
