// Judges one dataset row: renders every pass order, runs passes × samples (in parallel, gated by
// the limiter), maps swapped passes back and lets the strategy merge them into result columns.
import type { DatasetRow } from '../dataset/types';
import { judgeOnce } from './judgment';
import type { EngineContext, PassOutcome } from './judgment';
import type { PreparedJudge } from './prepare';
import type { PassOrder, PassReply } from './strategy';
import type { ChatMessage } from './types';

/** The key under which each results line records its 1-based dataset row number (used by --resume). */
export const ROW_KEY = '_row';

export type RowOutcome =
  | { status: 'ok'; line: Record<string, unknown> }
  | { status: 'failed'; line: Record<string, unknown>; error: string }
  | { status: 'aborted' };

/** The input row's fields, `_row`, then the metric's columns as `metric/column`. */
export function resultLine(row: DatasetRow, metric: string, columns: Record<string, unknown>): Record<string, unknown> {
  const line: Record<string, unknown> = { ...row.record };
  line[ROW_KEY] = row.row;
  for (const [k, v] of Object.entries(columns)) line[`${metric}/${k}`] = v;
  return line;
}

export async function judgeRow(row: DatasetRow, judge: PreparedJudge, samples: number, ctx: EngineContext): Promise<RowOutcome> {
  const { strategy, metric } = judge;
  const fail = (error: string, finished: PassReply<Record<string, unknown>>[], extra: Record<string, unknown> = {}): RowOutcome => ({
    status: 'failed',
    error,
    line: resultLine(row, metric, { ...strategy.errorColumns(finished), model: ctx.settings.model, ...extra, error }),
  });

  const prompts = new Map<PassOrder, ChatMessage[]>();
  for (const order of strategy.orders) {
    const rendered = judge.render(row.record, order, row.row);
    if (!rendered.ok) return fail(rendered.error, []);
    prompts.set(order, rendered.prompt.messages);
  }

  const jobs: { sample: number; order: PassOrder; outcome: Promise<PassOutcome<Record<string, unknown>>> }[] = [];
  for (let sample = 0; sample < samples; sample++) {
    for (const order of strategy.orders) {
      const outcome = judgeOnce(prompts.get(order)!, sample, order, strategy, ctx);
      jobs.push({ sample, order, outcome });
    }
  }
  const outcomes = await Promise.all(jobs.map(async (j) => ({ ...j, result: await j.outcome })));
  if (ctx.signal?.aborted || outcomes.some((o) => !o.result.ok && o.result.kind === 'aborted')) return { status: 'aborted' };

  const failures = outcomes.filter((o) => !o.result.ok);
  const passesOf = (sample: number) =>
    outcomes.flatMap((o) =>
      o.sample === sample && o.result.ok
        ? [
            {
              order: o.order,
              reply: strategy.mapBack(o.result.reply, o.order),
              ...(o.result.superseded ? { superseded: strategy.mapBack(o.result.superseded, o.order) } : {}),
            },
          ]
        : [],
    );
  const model = outcomes.find((o) => o.result.ok)?.result;
  const modelName = model && model.ok ? model.model : ctx.settings.model;

  const firstFailure = failures[0];
  if (firstFailure && !firstFailure.result.ok) {
    const where = [
      strategy.orders.length > 1 ? `${firstFailure.order} pass` : '',
      samples > 1 ? `sample ${firstFailure.sample + 1}` : '',
    ].filter(Boolean);
    const error = `${where.length ? `${where.join(', ')}: ` : ''}${firstFailure.result.error}`;
    const raw = firstFailure.result.rawReplies;
    return fail(error, passesOf(firstFailure.sample), { model: modelName, ...(raw.length ? { raw_replies: raw } : {}) });
  }

  const judgments = Array.from({ length: samples }, (_, s) => strategy.merge(passesOf(s)));
  return { status: 'ok', line: resultLine(row, metric, { ...strategy.columns(judgments, samples), model: modelName }) };
}
