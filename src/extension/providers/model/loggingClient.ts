// A JudgeClient wrapper that logs one line per request: method, where it went, model, status and
// duration. It never logs keys or header values; anything secret that a server echoes back in
// an error message is masked before it reaches the log.
import type { JudgeClient, JudgeRequest, JudgeResponse } from '../../../core/judge/transport/types';
import { JudgeError } from '../../../core/judge/transport/types';
import { MASK, scrubSecrets } from '../../../core/security/scrub';

export interface RequestLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface LoggingOptions {
  /** e.g. `POST` or `lm.sendRequest`. */
  method: string;
  /** Where requests go, e.g. `https://api.openai.com/v1/chat/completions` or `VS Code LM copilot`. */
  target: string;
  /** Values that must never appear in the log (the API key, header values). */
  secrets: readonly string[];
  log: RequestLog;
  now?: () => number;
}

export { MASK };

/** `text` with every secret value masked, and anything shaped like a credential (core/security/scrub.ts). */
export function redact(text: string, secrets: readonly string[]): string {
  return scrubSecrets(text, secrets);
}

export class LoggingClient implements JudgeClient {
  readonly id: string;
  private readonly now: () => number;

  constructor(
    private readonly inner: JudgeClient,
    private readonly options: LoggingOptions,
  ) {
    this.id = inner.id;
    this.now = options.now ?? Date.now;
  }

  async complete(request: JudgeRequest): Promise<JudgeResponse> {
    const started = this.now();
    const head = `${this.options.method} ${this.options.target} · model ${request.model} · ${request.messages.length} message(s)`;
    try {
      const response = await this.inner.complete(request);
      const usage = response.usage ? ` · ${response.usage.totalTokens} tokens` : '';
      this.options.log.info(`${head} · ok · ${this.now() - started} ms${usage}`);
      return response;
    } catch (e) {
      const status = e instanceof JudgeError ? `${e.kind}${e.options.status !== undefined ? ` ${e.options.status}` : ''}` : 'error';
      const message = e instanceof Error ? e.message : String(e);
      const line = `${head} · ${status} · ${this.now() - started} ms: ${redact(message, this.options.secrets)}`;
      if (e instanceof JudgeError && e.kind === 'aborted') this.options.log.info(line);
      else this.options.log.warn(line);
      throw e;
    }
  }
}
