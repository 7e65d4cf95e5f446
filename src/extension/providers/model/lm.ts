// The pure half of the VS Code Language Model client: message folding, model choice and error
// mapping, so they are tested in plain node. The `vscode` half is ../lmClient.ts.
import type { ChatMessage } from '../../../core/judge/transport/types';
import { JudgeError } from '../../../core/judge/transport/types';

export interface LmTurn {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * The Language Model API has no system role: system content is folded into the first user
 * message (before it, separated by a blank line). A conversation that would not start with a
 * user turn gets one holding the system content.
 */
export function foldSystem(messages: readonly ChatMessage[]): LmTurn[] {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).filter((c) => c !== '');
  const turns: LmTurn[] = messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role as LmTurn['role'], content: m.content }));
  if (system.length === 0) return turns;
  const preamble = system.join('\n\n');
  const first = turns[0];
  if (first?.role === 'user') return [{ role: 'user', content: `${preamble}\n\n${first.content}` }, ...turns.slice(1)];
  return [{ role: 'user', content: preamble }, ...turns];
}

/** What identifies a chat model offered by `vscode.lm.selectChatModels()`. */
export interface LmModelInfo {
  id: string;
  family: string;
  vendor: string;
  name: string;
}

/** The first model whose id, then family, then name equals a wanted name; else the first model offered. */
export function pickLmModel<M extends LmModelInfo>(models: readonly M[], wanted: readonly string[]): M | undefined {
  for (const w of wanted.map((n) => n.trim().toLowerCase()).filter(Boolean)) {
    for (const field of ['id', 'family', 'name'] as const) {
      const hit = models.find((m) => m[field].toLowerCase() === w);
      if (hit) return hit;
    }
  }
  return models[0];
}

export interface LmFailureContext {
  model: string;
  timeoutMs: number;
  timedOut: boolean;
  aborted: boolean;
}

/** Maps what `sendRequest` or its stream throws (LanguageModelError codes, cancellation) to a JudgeError. */
export function lmJudgeError(e: unknown, ctx: LmFailureContext): JudgeError {
  if (e instanceof JudgeError) return e;
  if (ctx.timedOut) return new JudgeError('timeout', `${ctx.model} gave no complete reply within ${ctx.timeoutMs} ms (raise judgeStudio.run.timeoutMs for slow models)`, { cause: e });
  if (ctx.aborted) return new JudgeError('aborted', 'the request was cancelled', { cause: e });
  const code = e && typeof e === 'object' && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
  const detail = e instanceof Error ? e.message : String(e);
  switch (code) {
    case 'NoPermissions':
      return new JudgeError('config', `VS Code has not allowed Judge Studio to use ${ctx.model} (${detail}); allow it when asked, or under Accounts › Manage Language Model Access`, { cause: e, retryable: false });
    case 'Blocked':
      // VS Code and its model providers block an extension for a while after too many requests.
      return new JudgeError('rate-limit', `VS Code blocked the request to ${ctx.model} (${detail}); lower judgeStudio.run.concurrency`, { cause: e, retryable: true });
    case 'NotFound':
      return new JudgeError('config', `the language model ${ctx.model} is no longer available (${detail}); pick another one`, { cause: e, retryable: false });
  }
  if (/rate.?limit|too many requests|\b429\b|quota/i.test(detail)) return new JudgeError('rate-limit', `${ctx.model}: ${detail}`, { cause: e });
  if (/\b5\d\d\b|timed? ?out|ECONNRESET|ECONNREFUSED|network|socket hang up/i.test(detail)) return new JudgeError('network', `${ctx.model}: ${detail}`, { cause: e });
  return new JudgeError('http', `${ctx.model} failed: ${detail}`, { cause: e, retryable: false });
}
