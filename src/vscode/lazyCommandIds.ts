// What is registered at activation with a thin handler whose module loads on first use: commands
// (surfaces.ts, lazyCommands.ts) by module, the chat participant and its tools (chat/registerChat.ts).
// Strings, not the modules' constants: importing a constant would load its module at activation. A
// unit test checks these against package.json and the modules.
export const LAZY_COMMAND_IDS = {
  signInCommands: ['switchboard.signIn', 'switchboard.signOut'],
  callToolCommand: ['switchboard.callTool'],
  importServers: ['switchboard.importServers'],
  gallery: ['switchboard.browseServers'],
  installLinks: ['switchboard.installFromLink'],
  chatCommands: ['switchboard.insertResourceMention', 'switchboard.runPrompt'],
  apps: ['switchboard.openApp'],
} as const;

/** Test-only commands of the same modules, registered only in extension test runs. */
export const LAZY_TEST_COMMAND_IDS = {
  signInCommands: ['_switchboard.test.scriptSignInBrowser', '_switchboard.test.signInPages'],
  importServers: ['_switchboard.test.answerImport'],
  gallery: ['_switchboard.test.installFromGallery'],
  installLinks: ['_switchboard.test.handleInstallUri'],
} as const;

/** The @mcp participant (package.json chatParticipants), registered at activation with a thin handler. */
export const CHAT_PARTICIPANT_ID = 'switchboard.mcp';

/** The language-model tools (package.json languageModelTools), registered at activation with thin handlers. */
export const CHAT_TOOL_NAMES = ['switchboard_search_tools', 'switchboard_call_tool', 'switchboard_code_api', 'switchboard_run_code', 'switchboard_read_resource'] as const;
