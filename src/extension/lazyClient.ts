// The judge client the editor builds, loaded on its first request: the openai SDK (about half a
// megabyte) is not part of what activation loads. Requests go to OpenAICompatibleClient as is.
import { redactUrl } from '../core/judge/transport/endpoint';
import type { OpenAIClientOptions } from '../core/judge/transport/openaiClient';
import type { JudgeClient, JudgeRequest, JudgeResponse } from '../core/judge/transport/types';

export class LazyOpenAIClient implements JudgeClient {
  /** As OpenAICompatibleClient names itself (a test holds the two to the same name). */
  readonly id: string;
  private client: Promise<JudgeClient> | undefined;

  constructor(private readonly options: OpenAIClientOptions) {
    this.id = `${options.azureApiVersion !== undefined ? 'azure' : 'openai'}:${redactUrl(options.baseURL)}`;
  }

  complete(request: JudgeRequest): Promise<JudgeResponse> {
    this.client ??= import('../core/judge/transport/openaiClient').then((m) => new m.OpenAICompatibleClient(this.options));
    return this.client.then((c) => c.complete(request));
  }
}
