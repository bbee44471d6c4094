// Which tools take a shell command, and in which argument: for those, "Always allow" is scoped to the
// command's signatures rather than to the whole tool. MCP servers name these tools and arguments in
// many ways (`run_command {command}`, `execute {cmd}`, `bash {script}`, `shell {commandLine}`), so both
// the argument's name and the tool's name count.

/** The part of an MCP tool definition this reads. */
export interface ToolShape {
  name: string;
  inputSchema?: { properties?: Record<string, unknown>; required?: string[] } | Record<string, unknown>;
}

/** Argument names that hold a shell command line, compared without case, `_` or `-`. */
const COMMAND_ARGUMENTS = ['command', 'cmd', 'commandline', 'shellcommand', 'bashcommand', 'script', 'shell', 'shellscript'];
/** Tool names of command runners, matched on whole `_`/`-`/`.`-separated words. */
const SHELL_TOOL = /(?:^|[_\-.])(?:run_?(?:command|shell|script|in_?terminal|terminal)|exec(?:ute)?(?:_?(?:command|shell|bash|script))?|shell(?:_?exec(?:ute)?)?|bash|sh|terminal|cmd)(?:$|[_\-.])/i;

/**
 * The name of the argument that holds a shell command line, or undefined for a tool that takes none: a
 * string argument named `command`, `cmd`, `script`, `shell`… ; or, for a tool named like a command runner
 * (`run_command`, `execute`, `shell`, `bash`), its only required string argument.
 */
export function shellCommandArgument(tool: ToolShape): string | undefined {
  // Read once per listed definition: every call of the tool asks.
  if (known.has(tool)) return known.get(tool);
  const argument = commandArgumentOf(tool);
  known.set(tool, argument);
  return argument;
}

/** The answer for each definition asked about (a catalog's tools are not changed in place). */
const known = new WeakMap<ToolShape, string | undefined>();

function commandArgumentOf(tool: ToolShape): string | undefined {
  const properties = stringProperties(tool);
  const byName = COMMAND_ARGUMENTS
    .map((wanted) => properties.find((name) => normalize(name) === wanted))
    .find((name) => name !== undefined);
  if (byName !== undefined) return byName;
  if (!SHELL_TOOL.test(tool.name)) return undefined;
  const required = requiredOf(tool).filter((name) => properties.includes(name));
  if (required.length === 1) return required[0];
  return properties.length === 1 ? properties[0] : undefined;
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Names of the schema's properties whose type is, or may be, a string. */
function stringProperties(tool: ToolShape): string[] {
  const properties = tool.inputSchema?.properties;
  if (properties === null || typeof properties !== 'object') return [];
  return Object.entries(properties as Record<string, unknown>)
    .filter(([, schema]) => {
      if (schema === null || typeof schema !== 'object') return false;
      const type = (schema as { type?: unknown }).type;
      return type === 'string' || (Array.isArray(type) && type.includes('string'));
    })
    .map(([name]) => name);
}

function requiredOf(tool: ToolShape): string[] {
  const required = tool.inputSchema?.required;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}
