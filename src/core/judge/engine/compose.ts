// How a run's judge is made of parts: one judge or a panel, samples, tiers (a screen model first,
// with the run's judge — one model or a panel — for the rows it escalates), and the self-judging
// guard. Composed here once, for every front end; a combination that cannot work is refused here
// with one message, whichever front end asked.
import type { DatasetRow } from '../../dataset/types';
import type { ErrorKind } from '../../results/errorKinds';
import { judgePanelRow, type Panel } from '../panel/panel';
import { isDimensional } from '../strategies/dimensions';
import { tieredJudge, type ContextJudge, type TierOptions, type TierStats } from '../tiers/tiered';
import { resultLine } from './line';
import type { EngineContext } from './pass';
import type { PreparedJudge } from './prepare';
import { failedColumns, judgeRow, type RowOutcome } from './row';
import { internalError, ReplyNotReady } from '../transport/types';
import { SelfJudgingGuard } from './selfJudging';

export interface Composition {
  judge: PreparedJudge;
  samples: number;
  /** Every member judges every row (the run's client and settings are then unused, but by the screen). */
  panel?: Panel;
  tiers?: { options: TierOptions; stats: TierStats };
}

/** A finished row as it is written: its results line. */
export type LineOutcome =
  | { status: 'ok'; line: Record<string, unknown> }
  | { status: 'failed'; line: Record<string, unknown>; error: string; kind: ErrorKind }
  | { status: 'aborted' }
  | { status: 'deferred' };

/** The parts of a composition that decide whether it can judge (front ends check before building clients). */
export interface CompositionShape {
  judge: Pick<PreparedJudge, 'config'>;
  panel?: { members: readonly { settings: { model: string } }[] };
  tiers?: { options: Pick<TierOptions, 'screenModel'> };
}

/** Why these parts cannot judge together, or undefined. */
export function compositionError(c: CompositionShape): string | undefined {
  if (c.panel && isDimensional(c.judge.config)) {
    return 'a template with dimensions (HHH) cannot be judged by a panel: its verdict has several dimensions to vote on; run one judge';
  }
  if (c.panel && c.tiers && c.panel.members.some((m) => m.settings.model === c.tiers!.options.screenModel)) {
    return `the screen model ${c.tiers.options.screenModel} is also a member of the panel it escalates to; choose a different screen model`;
  }
  return undefined;
}

export class CompositionError extends Error {
  override readonly name = 'CompositionError';
}

/** The judge of one row in a context, from its parts; throws CompositionError for a refused combination. */
export function composeJudge(c: Composition): ContextJudge {
  const refused = compositionError(c);
  if (refused) throw new CompositionError(refused);
  const single: ContextJudge = (row, ctx) => judgeRow(row, c.judge, c.samples, ctx);
  const main: ContextJudge = c.panel ? (row, ctx) => judgePanelRow(row, c.judge, c.samples, ctx, c.panel!) : single;
  if (!c.tiers) return main;
  return tieredJudge(c.tiers.options, c.tiers.stats, c.judge.config.kind, single, main);
}

/** The self-judging guard of a composition, when the template names its generator field. */
export function selfJudgingGuard(c: Composition, runModel: string, log?: (m: string) => void): SelfJudgingGuard | undefined {
  const field = c.judge.config.generator_field;
  if (!field) return undefined;
  const judges = c.panel?.members.map((m) => ({ label: m.label, model: m.settings.model })) ?? [{ label: runModel, model: runModel }];
  if (c.tiers) judges.push({ label: c.tiers.options.screenModel, model: c.tiers.options.screenModel });
  return new SelfJudgingGuard(field, judges, log);
}

/**
 * One row through the composed judge to its results line: the one place a line is built from a
 * verdict. Whatever a reply does to the engine, it is this row's failure (kind `internal`), never
 * the run's end: the other rows go on and --resume moves past it.
 */
export async function judgeLine(row: DatasetRow, c: Composition, judge: ContextJudge, ctx: EngineContext, guard?: SelfJudgingGuard, extra: Record<string, unknown> = {}): Promise<LineOutcome> {
  try {
    const outcome: RowOutcome = await judge(row, ctx);
    if (outcome.status === 'aborted' || outcome.status === 'deferred') return outcome;
    const same = guard?.check(row.record) ?? [];
    const line = resultLine(row, c.judge, { ...outcome.columns, ...extra, ...(same.length > 0 ? { self_judging: same } : {}) });
    return outcome.status === 'ok' ? { status: 'ok', line } : { status: 'failed', line, error: outcome.error, kind: outcome.kind };
  } catch (e) {
    if (e instanceof ReplyNotReady) throw e;
    if (ctx.signal?.aborted) return { status: 'aborted' };
    const error = internalError(e).message;
    return { status: 'failed', line: resultLine(row, c.judge, { ...failedColumns(c.judge, error, 'internal', { model: ctx.settings.model }), ...extra }), error, kind: 'internal' };
  }
}
