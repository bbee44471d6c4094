// Coexistence with VS Code's built-in MCP support: what it would run of a workspace's `.mcp.json`, and
// who hosts those servers once the person chose.
export {
  matchesVscodeServer, parseVscodeMcpAccess, parseVscodeServerMatchers, vscodeIdentityOf, vscodeWouldRun,
  type VscodeMcpAccess, type VscodeMcpAccessFacts, type VscodeMcpSettings, type VscodeRuns, type VscodeServerIdentity, type VscodeServerMatcher,
} from './vscodeMcp';
export {
  LEFT_TO_VSCODE, NO_HOSTING_RECORD, VSCODE_COPY_OFF, VSCODE_LOCKED, names, planProjectHosting, projectServerOverlap,
  type AccessChange, type HostingPlan, type HostingRecord, type ProjectHost,
} from './projectHosting';
export { HOSTING_ANSWERS, HOSTING_DEFAULT, VSCODE_ACCESS_KEY, hostingDefaultNotice, hostingQuestion } from './hostingQuestion';
