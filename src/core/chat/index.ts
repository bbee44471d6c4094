// Chat: `@server:uri` mentions, `/mcp__server__prompt` commands, tool results
// within a size limit, the tools a model gets and the catalog search, the tool loop, resource context,
// prompt messages, help.
export * from './argumentChoices';
export * from './catalogSearch';
export * from './chatHelp';
export * from './mentions';
export * from './modelMessages';
export * from './modelTools';
export * from './outputLimit';
export * from './personalData';
export * from './outputReview';
export * from './promptMessages';
export * from './resolveMention';
export * from './resourceContent';
export * from './serverInstructions';
export * from './slashCommand';
export * from './toolLoop';
