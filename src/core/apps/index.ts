// MCP Apps: which tools have an app, what an app may call, and the policy its frame runs under.
export * from './appPolicy';
export * from './uiResource';
