// The judge-client seam: the engine only talks to this interface, so the OpenAI SDK client,
// the VS Code Language Model API client and test fakes are interchangeable.

export type Role = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: Role;
  content: string;
}

export type StructuredOutputMode = 'json_schema' | 'json_object' | 'none';

export interface JudgeRequest {
  messages: ChatMessage[];
  model: string;
  temperature?: number;
  maxTokens?: number;
  /** Structured output: the JSON schema of the reply (from the zod reply schema) and its name. */
  responseFormat?: { mode: StructuredOutputMode; name: string; schema: Record<string, unknown> };
  signal?: AbortSignal;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface JudgeResponse {
  /** The assistant message text exactly as received. */
  text: string;
  /** The model the endpoint says answered (falls back to the requested one). */
  model: string;
  usage?: TokenUsage;
}

/** Failure kinds a client reports; `retryable` drives the batch runner's backoff. */
export type JudgeErrorKind = 'http' | 'network' | 'timeout' | 'rate-limit' | 'aborted' | 'config';

export class JudgeError extends Error {
  constructor(
    readonly kind: JudgeErrorKind,
    message: string,
    readonly options: { status?: number; retryAfterMs?: number; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message);
    this.name = 'JudgeError';
  }

  get retryable(): boolean {
    return this.options.retryable ?? (this.kind === 'network' || this.kind === 'timeout' || this.kind === 'rate-limit');
  }
}

export interface JudgeClient {
  /** A label for logs and results, e.g. `openai:http://127.0.0.1:8080/v1`. */
  readonly id: string;
  complete(request: JudgeRequest): Promise<JudgeResponse>;
}
