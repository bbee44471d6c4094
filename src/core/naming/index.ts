// Names: the names models know MCP tools by (`mcp__<server>__<tool>`), and the known names closest to
// a mistyped one ("did you mean …"). Used by chat, the CLI, search, code mode and the call gate.
export { closestNames, didYouMean } from './suggestions';
export * from './toolNames';
