// The text of a config file created by the "Open … Servers" commands when it does not exist yet.
// JSONC: comments explain the file where the user will read them.

/** `<folder>/.mcp.json`: shared with the team, so it shows a working example. */
export const PROJECT_FILE_TEMPLATE = `// MCP servers for this project, shared with everyone who clones the repository.
// MCP Switchboard asks before it starts a server defined here for the first time, and again
// whenever its command, arguments, environment, url or headers change.
// Same format as Claude Code and Cursor ("mcpServers") or VS Code ("servers").
{
  "mcpServers": {
    "memory": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-memory"]
    }
    // A server over Streamable HTTP:
    // "docs": {
    //   "type": "http",
    //   "url": "https://example.com/mcp",
    //   "headers": { "Authorization": "Bearer \${env:DOCS_TOKEN}" }
    // }
    // A server over Server-Sent Events:
    // "legacy": { "type": "sse", "url": "http://localhost:3001/sse" }
  }
}
`;

/**
 * The example every private file starts with: one stdio and one http server, commented out because a
 * server in your own files starts as soon as the file is saved (there is no trust prompt for them).
 */
const COMMENTED_EXAMPLE = `    // Uncomment an example to start it, or add your own entry beside them:
    // "memory": {
    //   "command": "npx",
    //   "args": ["-y", "@modelcontextprotocol/server-memory"]
    // },
    // "docs": {
    //   "type": "http",
    //   "url": "https://example.com/mcp",
    //   "headers": { "Authorization": "Bearer \${env:DOCS_TOKEN}" }
    // }`;

/** `~/.mcp.json`: this user's servers, in every workspace. */
export const USER_FILE_TEMPLATE = `// Your MCP servers, available in every workspace. Project and local servers with the same name win.
// Each entry: "command" + "args" (stdio) or "type": "http" + "url". \${env:NAME} reads a variable.
{
  "mcpServers": {
${COMMENTED_EXAMPLE}
  }
}
`;

/** The private per-folder file in the extension's storage. */
export function localFileTemplate(folderName: string): string {
  return `// Local MCP servers for "${folderName.replace(/[\r\n]/g, ' ')}": private to you on this machine, never committed.
// A server defined here overrides the project's .mcp.json entry of the same name.
{
  "mcpServers": {
${COMMENTED_EXAMPLE}
  }
}
`;
}
