// Chat: tool names for models, `@server:uri` mentions, `/mcp__server__prompt` commands, and tool
// results within a size limit.
export * from './mentions';
export * from './outputLimit';
export * from './slashCommand';
export * from './toolNames';
