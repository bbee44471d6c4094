// The one place that imports the MCP SDK's client side. Other Node adapters import what they need from
// here, so the SDK surface we depend on is visible in one file and an SDK upgrade is checked here. (The
// core uses only the SDK's pure UriTemplate, in src/core/chat/resolveMention.ts.)
//
// The client is the SDK's v2 package, which speaks both protocol generations (2025-11-25 with
// `initialize`, 2026-07-28 with `server/discover` and per-request metadata). Its package has no
// WebSocket transport: `ws` servers keep the v1 package's transport, which carries the v2 Client's
// messages unchanged (a Transport only moves JSON-RPC messages). The v2 Client has no client side of
// the Tasks extension either: src/node/taskRequests.ts sends those requests through the Client's
// generic request() with the v1 package's task schemas.
export { Client } from '@modelcontextprotocol/client';
export type { ClientOptions, ConnectOptions, McpSubscription, ProtocolEra } from '@modelcontextprotocol/client';
export { StreamableHTTPClientTransport, SSEClientTransport, SseError, SdkError, SdkErrorCode, SdkHttpError, ProtocolError } from '@modelcontextprotocol/client';
export { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
export { ReadBuffer, serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/client';
export type { FetchLike, Transport, JSONRPCMessage, JSONRPCNotification, MessageExtraInfo } from '@modelcontextprotocol/client';
// Used by the connector (src/node/connector.ts, connection.ts): per-request options of the SDK Client.
export type { RequestOptions as SdkRequestOptions } from '@modelcontextprotocol/client';
// Client side of MCP authorization (src/node/auth): the SDK does discovery, registration (or a client ID
// metadata document where the authorization server supports one), PKCE, the token requests, refresh and
// scope step-up; we supply the provider (storage, the browser, the redirect).
export { auth as sdkAuth, IssuerMismatchError, OAuthError, UnauthorizedError, validateAuthorizationResponseIssuer } from '@modelcontextprotocol/client';
// The server's RFC 8707 resource identifier (src/node/auth/resourceIdentifier.ts), and what a 401's
// WWW-Authenticate challenge names, read as the SDK reads it (src/node/auth/oauthFetchGuard.ts).
export { extractWWWAuthenticateParams, resourceUrlFromServerUrl } from '@modelcontextprotocol/client';
export type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/client';
export { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/client';
export type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/client';
export { RELATED_TASK_META_KEY } from '@modelcontextprotocol/client';
// The Tasks extension (src/node/taskRequests.ts): the created task of a tools/call sent with `task`, a
// task's state, and the result tasks/result answers. The v2 Client validates results with any Standard
// Schema, so the v1 package's zod schemas of these results are passed to its request().
export {
  CallToolResultSchema, CancelTaskResultSchema, CreateTaskResultSchema, GetTaskResultSchema, TaskStatusNotificationParamsSchema,
} from '@modelcontextprotocol/sdk/types.js';
export type { Task as SdkTask, ElicitResult } from '@modelcontextprotocol/client';
// The JSON Schema validator the SDK Client compiles tool output schemas (and elicitation schemas) with.
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
export type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator as SdkJsonSchemaValidator } from '@modelcontextprotocol/client';
