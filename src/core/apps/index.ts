// MCP Apps: which tools have an app, what an app may call, the policy its frame runs under and the document it gets.
export * from './appPolicy';
export * from './frameDocument';
export * from './uiResource';
