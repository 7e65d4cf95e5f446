// A row's results line from its finished passes, by the rules `run` uses (judgeRow in
// core/judge/row.ts): passes mapped back, merged per sample by the strategy, the first failure (in
// sample, then pass order) failing the row with its kind. Kept in step with judgeRow by the
// test that compares `batch collect` with `run` line for line.
import type { DatasetRow } from '../dataset/types';
import type { ErrorKind } from '../results/errorKinds';
import type { PreparedJudge } from '../judge/engine/prepare';
import { resultLine, type RowOutcome } from '../judge/engine/row';
import type { PassOrder, PassReply } from '../judge/strategies/types';

export type PassResult =
  | { ok: true; reply: Record<string, unknown>; model: string }
  | { ok: false; kind: ErrorKind; error: string; rawReplies: string[] };

export interface PassJob {
  sample: number;
  order: PassOrder;
  result: PassResult;
}

/** `jobs` in the order judgeRow starts them: sample by sample, each in the strategy's pass order. */
export function assembleRow(
  row: DatasetRow,
  judge: PreparedJudge,
  samples: number,
  jobs: PassJob[],
  fallbackModel: string,
  extra: Record<string, unknown> = {},
): Exclude<RowOutcome, { status: 'aborted' }> {
  const { strategy } = judge;
  const passesOf = (sample: number): PassReply<Record<string, unknown>>[] =>
    jobs.flatMap((j) => (j.sample === sample && j.result.ok ? [{ order: j.order, reply: strategy.mapBack(j.result.reply, j.order) }] : []));
  const answered = jobs.find((j) => j.result.ok)?.result;
  const model = answered && answered.ok ? answered.model : fallbackModel;

  const failure = jobs.find((j) => !j.result.ok);
  if (failure && !failure.result.ok) {
    const where = [strategy.orders.length > 1 ? `${failure.order} pass` : '', samples > 1 ? `sample ${failure.sample + 1}` : ''].filter(Boolean);
    const error = `${where.length ? `${where.join(', ')}: ` : ''}${failure.result.error}`;
    const kind = failure.result.kind;
    const raw = failure.result.rawReplies;
    const columns = { ...strategy.errorColumns(passesOf(failure.sample)), model, ...(raw.length ? { raw_replies: raw } : {}), ...extra };
    return { status: 'failed', error, kind, line: resultLine(row, judge, { ...columns, error, error_kind: kind }) };
  }
  const judgments = Array.from({ length: samples }, (_, s) => strategy.merge(passesOf(s)));
  return { status: 'ok', line: resultLine(row, judge, { ...strategy.columns(judgments, samples), model, ...extra }) };
}

/** The line of a row the template could not be rendered for (as judgeRow writes it). */
export function renderFailureLine(row: DatasetRow, judge: PreparedJudge, error: string, model: string): Exclude<RowOutcome, { status: 'aborted' }> {
  return {
    status: 'failed',
    error,
    kind: 'render',
    line: resultLine(row, judge, { ...judge.strategy.errorColumns([]), model, error, error_kind: 'render' }),
  };
}
