// What the conformance client asks of a scenario's server once connected. The suite says it in one of
// three ways, and each is followed as said: a scenario may only look at the handshake; its context may
// list the exact tool calls to make (`toolCalls`, e.g. http-custom-headers, whose values test header
// encoding); or its description names steps of its own (json-schema-2020-12-preservation: send the
// focal tool's input schema back through the echo tool, verbatim, so the suite sees what the client
// kept). Otherwise every tool is called once with arguments built from its schema.
import type { ToolInfo } from '../core/lifecycle';
import type { ScenarioContext } from './conformanceAuth';

export interface ToolCallStep {
  tool: string;
  arguments: Record<string, unknown>;
}

/** Scenarios that only check the handshake: connect, list, disconnect. */
const HANDSHAKE_ONLY = new Set(['initialize']);

/** Scenarios whose description names the client's calls. */
const DESCRIBED: Record<string, (tools: readonly ToolInfo[]) => ToolCallStep[]> = {
  'json-schema-2020-12-preservation': (tools) => {
    const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    return focal === undefined ? [] : [{ tool: 'json_schema_echo', arguments: { schema: focal.inputSchema } }];
  },
};

/** The tool calls the client makes in `scenario`, in order. */
export function conformanceSteps(scenario: string, context: ScenarioContext, tools: readonly ToolInfo[]): ToolCallStep[] {
  if (HANDSHAKE_ONLY.has(scenario)) return [];
  const listed = contextToolCalls(context);
  if (listed !== undefined) return listed;
  const described = DESCRIBED[scenario];
  if (described !== undefined) return described(tools);
  return tools.map((tool) => ({ tool: tool.name, arguments: sampleArguments(tool) }));
}

/** The context's `toolCalls` ([{ name, arguments }]) when it lists them; entries of another shape are an error, not skipped. */
function contextToolCalls(context: ScenarioContext): ToolCallStep[] | undefined {
  const calls = context.toolCalls;
  if (calls === undefined) return undefined;
  if (!Array.isArray(calls)) throw new Error('MCP_CONFORMANCE_CONTEXT: toolCalls is not a list');
  return calls.map((call: unknown, index) => {
    const { name, arguments: args = {} } = (typeof call === 'object' && call !== null ? call : {}) as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new Error(`MCP_CONFORMANCE_CONTEXT: toolCalls[${index}] is not { name, arguments }`);
    }
    return { tool: name, arguments: args as Record<string, unknown> };
  });
}

type JsonSchema = { type?: unknown; default?: unknown; enum?: unknown; properties?: unknown; required?: unknown };

/** Arguments that satisfy a tool's input schema: every required property, with a plausible value. */
export function sampleArguments(tool: Pick<ToolInfo, 'inputSchema'>): Record<string, unknown> {
  const value = sampleValue(tool.inputSchema as JsonSchema, 0);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
}

function sampleValue(schema: JsonSchema, depth: number): unknown {
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'number': case 'integer': return 1;
    case 'boolean': return true;
    case 'string': return 'conformance';
    case 'array': return [];
    case 'null': return null;
    default: {
      if (depth > 5) return {};
      const properties = (typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {}) as Record<string, JsonSchema>;
      const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : [];
      const result: Record<string, unknown> = {};
      for (const key of required) result[key] = sampleValue(properties[key] ?? {}, depth + 1);
      return result;
    }
  }
}
