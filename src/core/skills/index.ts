// Skills that bring their own MCP servers: SKILL.md files found where VS Code and Claude Code look for
// them, their frontmatter's servers read by the config parser, and the idle stop of a skill's servers.
export * from './idleStop';
export * from './locations';
export * from './skillFile';
export * from './skillScan';
export * from './skillTool';
export * from './sameName';
