// Where the managed policy file is on each platform: a folder only an administrator can write.
import * as path from 'node:path';

/** The machine-wide policy file of MCP Switchboard on `platform`. */
export function managedPolicyFile(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): string {
  switch (platform) {
    case 'win32': return path.win32.join(env.ProgramData ?? env.PROGRAMDATA ?? 'C:\\ProgramData', 'MCP Switchboard', 'policy.json');
    case 'darwin': return '/Library/Application Support/MCP Switchboard/policy.json';
    default: return '/etc/mcp-switchboard/policy.json';
  }
}
