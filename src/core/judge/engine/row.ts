// Judges one dataset row: renders every pass order, runs passes × samples (in parallel, gated by
// the limiter), maps swapped passes back and lets the strategy merge them into result columns.
import type { DatasetRow } from '../../dataset/types';
import type { ErrorKind } from '../../results/errorKinds';
import { rowKey } from '../../results/keys';
import { ROW_KEY } from '../../results/latest';
import { judgeOnce } from './pass';
import type { EngineContext, PassOutcome } from './pass';
import type { PreparedJudge } from './prepare';
import type { PassOrder, PassReply } from '../strategies/strategy';
import type { ChatMessage } from '../transport/types';
import { round6 } from '../strategies/votes';

export { ROW_KEY } from '../../results/latest';
/** The key under which each results line records its row identity (see core/results/keys.ts). */
export const KEY_KEY = '_key';

export type RowOutcome =
  | { status: 'ok'; line: Record<string, unknown> }
  | { status: 'failed'; line: Record<string, unknown>; error: string; kind: ErrorKind }
  | { status: 'aborted' };

/** What a results line needs to know of the judge besides its columns. */
export interface LineIdentity {
  metric: string;
  templateHash: string;
  keyFields: readonly string[];
}

/**
 * The input row's fields, `_row`, `_key`, then the metric's columns as `metric/column`. The
 * pipeline owns every `metric/…` column except the human labels: stale judge columns carried in by
 * the input (a results file judged again) are dropped, so a line never mixes two judgments, and
 * nothing but `columns` (whose keys the strategy names) is written under the metric.
 */
export function resultLine(row: DatasetRow, id: LineIdentity, columns: Record<string, unknown>): Record<string, unknown> {
  const prefix = `${id.metric}/`;
  const line: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row.record)) {
    if (k === ROW_KEY || k === KEY_KEY) continue;
    if (k.startsWith(prefix) && !k.startsWith(`${prefix}human_`)) continue;
    line[k] = v;
  }
  line[ROW_KEY] = row.row;
  line[KEY_KEY] = rowKey(row.record, id.keyFields);
  for (const [k, v] of Object.entries(columns)) {
    if (k.startsWith('human_')) continue; // a label is never the judge's to write
    line[`${prefix}${k}`] = v;
  }
  line[`${prefix}template_hash`] = id.templateHash;
  return line;
}

export async function judgeRow(row: DatasetRow, judge: PreparedJudge, samples: number, ctx: EngineContext): Promise<RowOutcome> {
  const { strategy } = judge;
  const fail = (error: string, kind: ErrorKind, finished: PassReply<Record<string, unknown>>[], extra: Record<string, unknown> = {}): RowOutcome => ({
    status: 'failed',
    error,
    kind,
    line: resultLine(row, judge, { ...strategy.errorColumns(finished), model: ctx.settings.model, ...extra, error, error_kind: kind }),
  });

  const prompts = new Map<PassOrder, ChatMessage[]>();
  for (const order of strategy.orders) {
    const rendered = judge.render(row.record, order, row.row);
    if (!rendered.ok) return fail(rendered.error, 'render', []);
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
  if (ctx.signal?.aborted || outcomes.some((o) => !o.result.ok && o.result.kind === 'cancelled')) return { status: 'aborted' };

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
    return fail(error, firstFailure.result.kind, passesOf(firstFailure.sample), { model: modelName, ...(raw.length ? { raw_replies: raw } : {}) });
  }

  const judgments = Array.from({ length: samples }, (_, s) => strategy.merge(passesOf(s)));
  // Samples that give no verdict together (no strict majority of a label) fail the row.
  const undecided = strategy.undecided?.(judgments, samples);
  if (undecided !== undefined) return fail(undecided, 'no-majority', [], { ...strategy.columns(judgments, samples), model: modelName });
  // A verdict that needed the repair request says so, so the editor can badge it.
  const repaired = outcomes.some((o) => o.result.ok && o.result.repaired);
  return {
    status: 'ok',
    line: resultLine(row, judge, { ...strategy.columns(judgments, samples), ...expectedColumn(outcomes.map((o) => o.result)), model: modelName, ...(repaired ? { repaired: true } : {}) }),
  };
}

/** `scoring: expected`: the mean of the samples' expected scores, null when any sample had none. */
function expectedColumn(results: readonly PassOutcome<Record<string, unknown>>[]): { score_expected?: number | null } {
  const values = results.flatMap((r) => (r.ok && r.expected !== undefined ? [r.expected] : []));
  if (values.length === 0) return {};
  return { score_expected: values.every((v): v is number => v !== null) ? round6(values.reduce((a, b) => a + b, 0) / values.length) : null };
}
