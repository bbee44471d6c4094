// The public API of the tool call gate: the one way every caller calls a tool.
export { ToolCallGate, handOverToolCaller, type GateRegistry, type RegistryToolCaller, type ToolCallGateOptions } from './toolCallGate';
export { TaskDetachedError, ToolCallRefusedError, type ToolCallRefusalCode } from './refusals';
export type {
  DecideToolCall, ResolvedToolCall, ToolCallDecidedBy, ToolCallDecision, ToolCallDecisionBasis, ToolCallOutcome, ToolCallRecord, ToolCallRequest,
  ToolCallResponse, ToolCallStatus, ToolCallOrigin, ToolStatusSource,
} from './types';
