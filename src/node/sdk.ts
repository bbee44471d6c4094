// The one place that imports the MCP SDK's client side. Other Node adapters import what they need from
// here, so the SDK surface we depend on is visible in one file and an SDK upgrade is checked here. (The
// core uses only the SDK's pure UriTemplate, in src/core/chat/resolveMention.ts.)
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
export { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
export { ReadBuffer, serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
export type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
export {
  ErrorCode,
  McpError,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
export type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
// Used by the connector (src/node/connector.ts, connection.ts): per-request options of the SDK Client.
export type { RequestOptions as SdkRequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
// Client side of MCP authorization (src/node/auth): the SDK does discovery, registration, PKCE, the
// token requests, refresh and scope step-up; we supply the provider (storage, the browser, the redirect).
export { auth as sdkAuth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
export type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
export { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
export type {
  OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
export { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
// The Tasks extension (src/node/taskRequests.ts): the created task of a tools/call sent with `task`, its
// status notifications, the result tasks/result answers, and the key marking a request as a task's.
export {
  CallToolResultSchema, CreateTaskResultSchema, RELATED_TASK_META_KEY, TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
export type { Task as SdkTask } from '@modelcontextprotocol/sdk/types.js';
// The JSON Schema validator the SDK Client compiles tool output schemas (and elicitation schemas) with.
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
export type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator as SdkJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
