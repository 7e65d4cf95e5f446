// `--budget CALLS`: a hook on the client seam that counts every request align sends (judge passes,
// retries, repairs, author calls) and refuses the one that would exceed the budget, before it is
// sent. The refusal is a cancellation to the engine, so the row it belonged to is not recorded.
import { JudgeError, type JudgeClient, type JudgeRequest, type JudgeResponse } from '../judge/transport/types';

export class CallMeter {
  used = 0;
  /** Set when a request was refused: the budget is spent. */
  exhausted = false;
  private readonly listeners: (() => void)[] = [];

  constructor(readonly limit: number | undefined) {}

  get remaining(): number {
    return this.limit === undefined ? Infinity : Math.max(0, this.limit - this.used);
  }

  /** Called once, when the first request is refused. */
  onExhausted(listener: () => void): void {
    this.listeners.push(listener);
  }

  wrap(client: JudgeClient): JudgeClient {
    return {
      id: client.id,
      complete: (request: JudgeRequest): Promise<JudgeResponse> => {
        if (this.limit !== undefined && this.used >= this.limit) {
          if (!this.exhausted) {
            this.exhausted = true;
            for (const l of this.listeners) l();
          }
          return Promise.reject(new JudgeError('aborted', `the budget of ${this.limit} call(s) is spent`, { retryable: false }));
        }
        this.used++;
        return client.complete(request);
      },
    };
  }
}
