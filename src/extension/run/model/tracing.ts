// A judge client wrapper that reports each request and reply of a single run to a PassTracker,
// so the run view can say "pass 1 sent, pass 2 answered" and keep every raw reply.
import type { JudgeClient, JudgeRequest, JudgeResponse } from '../../../core/judge/transport/types';
import type { PassTracker } from './status';

export class TracingClient implements JudgeClient {
  readonly id: string;

  constructor(
    private readonly inner: JudgeClient,
    private readonly tracker: PassTracker,
    private readonly onChange: () => void,
  ) {
    this.id = inner.id;
  }

  async complete(request: JudgeRequest): Promise<JudgeResponse> {
    const order = this.tracker.request(request.messages);
    this.onChange();
    try {
      const response = await this.inner.complete(request);
      if (order) this.tracker.reply(order, response.text);
      return response;
    } catch (e) {
      if (order) this.tracker.error(order);
      throw e;
    } finally {
      this.onChange();
    }
  }
}
