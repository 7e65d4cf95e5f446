// Judges one dataset row with one judge: renders every pass order once, runs passes × samples (in
// parallel, gated by the limiter), maps swapped passes back and lets the strategy merge them into
// the metric's columns. The columns become a results line in one place only (line.ts).
import type { DatasetRow } from '../../dataset/types';
import type { ErrorKind } from '../../results/errorKinds';
import { round6 } from '../strategies/votes';
import type { PassOrder, PassReply } from '../strategies/strategy';
import type { ChatMessage } from '../transport/types';
import { ReplyNotReady } from '../transport/types';
import { buildRequest, judgeOnce, strategySettings, type EngineContext, type PassOutcome, type PassRequest } from './pass';
import type { PreparedJudge } from './prepare';
import type { JudgeSettings } from './settings';

export { KEY_KEY, ROW_KEY, resultLine, type LineIdentity } from './line';

/** The metric's columns of one row, without the `metric/` prefix. */
export type Columns = Record<string, unknown>;

/** A row judged or failed: its columns (the line is built from them by line.ts). */
export type RowVerdict =
  | { status: 'ok'; columns: Columns }
  | { status: 'failed'; columns: Columns; error: string; kind: ErrorKind };

/**
 * `aborted`: the run was cancelled while the row was in flight (no line). `deferred`: a transport
 * could not answer yet (a provider batch still running, a repair queued): judged again later.
 */
export type RowOutcome = RowVerdict | { status: 'aborted' } | { status: 'deferred' };

export type RenderedRow = { ok: true; passes: PassRequest[] } | { ok: false; error: string };

/**
 * Every request a row's judgment sends first, sample by sample, each in the strategy's pass order:
 * what `run` sends and what a provider batch carries, from the same function.
 */
export function rowRequests(row: DatasetRow, judge: PreparedJudge, samples: number, settings: JudgeSettings): RenderedRow {
  const { strategy } = judge;
  const prompts = new Map<PassOrder, ChatMessage[]>();
  for (const order of strategy.orders) {
    const rendered = judge.render(row.record, order, row.row);
    if (!rendered.ok) return { ok: false, error: rendered.error };
    prompts.set(order, rendered.prompt.messages);
  }
  const sent = strategySettings(settings, strategy);
  const passes: PassRequest[] = [];
  for (let sample = 0; sample < samples; sample++) {
    for (const order of strategy.orders) {
      passes.push({ sample, order, request: buildRequest(prompts.get(order)!, sent, strategy.jsonSchema, { row: row.row, sample, order, step: 'judge' }) });
    }
  }
  return { ok: true, passes };
}

/** The columns of a row that failed before or without a verdict. */
export function failedColumns(judge: PreparedJudge, error: string, kind: ErrorKind, extra: Columns = {}, finished: PassReply<Record<string, unknown>>[] = []): Columns {
  return { ...judge.strategy.errorColumns(finished), ...extra, error, error_kind: kind };
}

export async function judgeRow(row: DatasetRow, judge: PreparedJudge, samples: number, ctx: EngineContext): Promise<RowOutcome> {
  const { strategy } = judge;
  const rendered = rowRequests(row, judge, samples, ctx.settings);
  if (!rendered.ok) return { status: 'failed', error: rendered.error, kind: 'render', columns: failedColumns(judge, rendered.error, 'render', { model: ctx.settings.model }) };

  // Every pass settles before the row does: a transport that defers one pass still sees the others
  // (a provider batch queues every repair a row needs at once).
  const settled = await Promise.allSettled(rendered.passes.map((p) => judgeOnce(p, strategy, ctx)));
  if (settled.some((s) => s.status === 'rejected' && s.reason instanceof ReplyNotReady)) return { status: 'deferred' };
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  const outcomes = rendered.passes.map((p, i) => ({ ...p, result: (settled[i] as PromiseFulfilledResult<PassOutcome<Record<string, unknown>>>).value }));
  if (ctx.signal?.aborted || outcomes.some((o) => !o.result.ok && o.result.aborted)) return { status: 'aborted' };

  const passesOf = (sample: number): PassReply<Record<string, unknown>>[] =>
    outcomes.flatMap((o) =>
      o.sample === sample && o.result.ok
        ? [{ order: o.order, reply: strategy.mapBack(o.result.reply, o.order), ...(o.result.superseded ? { superseded: strategy.mapBack(o.result.superseded, o.order) } : {}) }]
        : [],
    );
  const answered = outcomes.find((o) => o.result.ok)?.result;
  const model = answered?.ok ? answered.model : ctx.settings.model;

  const failure = outcomes.find((o) => !o.result.ok);
  // Under `swap_rule: votes` a failed pass abstains while its sample has another pass that answered.
  const abstained = failure && strategy.abstain ? abstentions(outcomes, samples) : undefined;
  if (failure && !failure.result.ok && !abstained) {
    const where = [strategy.orders.length > 1 ? `${failure.order} pass` : '', samples > 1 ? `sample ${failure.sample + 1}` : ''].filter(Boolean);
    const error = `${where.length ? `${where.join(', ')}: ` : ''}${failure.result.error}`;
    const raw = failure.result.rawReplies.map((text) => boundedRawReply(text, ctx.keepRawReplies === true));
    const extra = { model, ...(raw.length ? { raw_replies: raw } : {}) };
    return { status: 'failed', error, kind: failure.result.kind, columns: failedColumns(judge, error, failure.result.kind, extra, passesOf(failure.sample)) };
  }

  const judgments = Array.from({ length: samples }, (_, s) => strategy.merge(passesOf(s)));
  // Samples that give no verdict together (no strict majority of a label) fail the row.
  const undecided = strategy.undecided?.(judgments, samples);
  if (undecided !== undefined) return { status: 'failed', error: undecided, kind: 'no-majority', columns: failedColumns(judge, undecided, 'no-majority', { ...strategy.columns(judgments, samples), model }) };
  // A verdict that needed the repair request says so, so the editor can badge it.
  const repaired = outcomes.some((o) => o.result.ok && o.result.repaired);
  const columns = strategy.columns(judgments, samples);
  if (abstained) columns.passes = [...(Array.isArray(columns.passes) ? (columns.passes as unknown[]) : []), ...abstained];
  return {
    status: 'ok',
    columns: { ...columns, ...expectedColumn(outcomes.map((o) => o.result)), model, ...(repaired ? { repaired: true } : {}) },
  };
}

type Outcome = PassRequest & { result: PassOutcome<Record<string, unknown>> };

/** Failures that are the judge's answer (a reply with no readable verdict), not the transport's: they abstain. */
const UNREADABLE: readonly ErrorKind[] = ['invalid-reply', 'ambiguous-verdict'];

/**
 * The failed passes as `passes` entries (winner null, their error), or undefined when a sample has
 * no pass that answered and a pass of it failed for another reason than an unreadable reply (a
 * network error is retried on resume, never voted away).
 */
function abstentions(outcomes: readonly Outcome[], samples: number): Record<string, unknown>[] | undefined {
  for (let s = 0; s < samples; s++) {
    const own = outcomes.filter((o) => o.sample === s);
    if (!own.some((o) => o.result.ok) && !own.every((o) => !o.result.ok && UNREADABLE.includes(o.result.kind))) return undefined;
  }
  return outcomes.flatMap((o) =>
    o.result.ok ? [] : [{ ...(samples > 1 ? { sample: o.sample + 1 } : {}), order: o.order, winner: null, error: o.result.error, error_kind: o.result.kind }],
  );
}

/** Of each reply a failed row keeps in `raw_replies`, this many characters (the full text only with --keep-raw-replies). */
export const RAW_REPLY_CHARS = 8_000;

/** A failed reply as `raw_replies` keeps it: its start, and a mark saying how much was left out. */
export function boundedRawReply(text: string, keepAll: boolean): string {
  if (keepAll || text.length <= RAW_REPLY_CHARS) return text;
  return `${text.slice(0, RAW_REPLY_CHARS)}… [${(text.length - RAW_REPLY_CHARS).toLocaleString('en-US')} more characters not kept; --keep-raw-replies keeps them]`;
}

/** `scoring: expected`: the mean of the samples' expected scores, null when any sample had none. */
function expectedColumn(results: readonly PassOutcome<Record<string, unknown>>[]): { score_expected?: number | null } {
  const values = results.flatMap((r) => (r.ok && r.expected !== undefined ? [r.expected] : []));
  if (values.length === 0) return {};
  return { score_expected: values.every((v): v is number => v !== null) ? round6(values.reduce((a, b) => a + b, 0) / values.length) : null };
}
