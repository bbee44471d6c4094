// What the sidebar shows of a server's sampling request (a model completion it asks for). Imports nothing.

export interface SamplingCard {
  readonly id: string;
  readonly serverId: string;
  readonly serverName: string;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly text: string }[];
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly modelPreferences?: {
    readonly hints?: readonly string[];
    readonly costPriority?: number;
    readonly speedPriority?: number;
    readonly intelligencePriority?: number;
  };
  /** The model that will answer, when already chosen for this server. */
  readonly model?: string;
  readonly createdAt: number;
}
