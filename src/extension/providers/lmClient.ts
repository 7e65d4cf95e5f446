// A JudgeClient over the VS Code Language Model API (vscode.lm), e.g. the models Copilot offers.
// The API has no structured output: the engine's tolerant JSON extraction and repair handle the
// reply. Temperature and max tokens are vendor-specific model options, so they are not sent.
import * as vscode from 'vscode';
import type { JudgeClient, JudgeRequest, JudgeResponse } from '../../core/judge/transport/types';
import { JudgeError } from '../../core/judge/transport/types';
import { foldSystem, lmJudgeError } from './model/lm';

export interface LanguageModelClientOptions {
  /** Whole-call deadline in ms (first token to last). */
  timeoutMs: number;
}

const JUSTIFICATION = 'Judge Studio sends the prompt rendered from your .judge template to this model to judge your dataset rows.';

export class LanguageModelClient implements JudgeClient {
  readonly id: string;

  constructor(
    private readonly model: vscode.LanguageModelChat,
    private readonly options: LanguageModelClientOptions,
  ) {
    this.id = `vscode-lm:${model.vendor}/${model.id}`;
  }

  async complete(request: JudgeRequest): Promise<JudgeResponse> {
    // No system role in this API: system content is folded into the first user message.
    const messages = foldSystem(request.messages).map((t) =>
      t.role === 'user' ? vscode.LanguageModelChatMessage.User(t.content) : vscode.LanguageModelChatMessage.Assistant(t.content),
    );
    const cancel = new vscode.CancellationTokenSource();
    let timedOut = false;
    let stop: (reason: JudgeError) => void = () => {};
    // Rejects when the deadline passes or the caller aborts, even if the provider ignores the token.
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    stopped.catch(() => {});
    const timer = setTimeout(() => {
      timedOut = true;
      cancel.cancel();
      stop(lmJudgeError(undefined, this.failure(true, false)));
    }, this.options.timeoutMs);
    const onAbort = () => {
      cancel.cancel();
      stop(new JudgeError('aborted', 'the request was cancelled'));
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (request.signal?.aborted) throw new JudgeError('aborted', 'the request was cancelled');
      const response = await Promise.race([this.model.sendRequest(messages, { justification: JUSTIFICATION }, cancel.token), stopped]);
      const chunks = response.text[Symbol.asyncIterator]();
      let text = '';
      for (;;) {
        const next = await Promise.race([chunks.next(), stopped]);
        if (next.done) break;
        text += next.value;
      }
      // A cancelled stream may simply end early: never hand a truncated reply to the engine.
      if (cancel.token.isCancellationRequested) throw lmJudgeError(undefined, this.failure(timedOut, true));
      return { text, model: this.model.id };
    } catch (e) {
      throw lmJudgeError(e, this.failure(timedOut, request.signal?.aborted ?? false));
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }

  private failure(timedOut: boolean, aborted: boolean) {
    return { model: this.model.id, timeoutMs: this.options.timeoutMs, timedOut, aborted };
  }
}
