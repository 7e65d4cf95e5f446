// Tiered judging: a cheap screen model judges every row; the rows it is unsure about (low
// confidence, a position-inconsistent verdict, a score inside a band, a failed reply) go to the
// big judge, whose verdict then stands. `audit` also sends a seeded random share of the other rows
// to the big judge, so the escalation threshold can be calibrated on them (see thresholds.ts).
import { createHash } from 'node:crypto';
import type { DatasetRow } from '../../dataset/types';
import type { EngineContext } from '../engine/pass';
import type { RowOutcome, RowVerdict } from '../engine/row';
import type { RunStats } from '../run/stats';
import type { JudgeClient, TokenUsage } from '../transport/types';

export interface EscalationRule {
  /** Escalate when the screen's confidence is below this (rows without a confidence are not escalated by it). */
  confidenceBelow?: number;
  /** Escalate a pairwise verdict whose two orders disagreed. */
  inconsistent?: boolean;
  /** Escalate a score inside this inclusive band (the overall score for multi-criterion templates). */
  band?: [number, number];
  /** Escalate when the screen's reply failed (invalid after repair, or an endpoint error). Default on. */
  failed?: boolean;
}

export type EscalationReason = 'failed' | 'low-confidence' | 'inconsistent' | 'band';

export interface TierOptions {
  screenModel: string;
  /** The big judge; default the run's model. */
  judgeModel?: string;
  /** Another endpoint for the screen (default: the run's client), with its cache scope. */
  screenClient?: JudgeClient;
  screenCacheScope?: string;
  escalate: EscalationRule;
  /** Percent (0–100) of non-escalated rows also sent to the big judge, chosen by `seed` and the row number. */
  audit?: { percent: number; seed: number };
}

/** One tier's verdict on a row, as recorded in `m/tiers`. */
export interface TierVerdict {
  model: string;
  score?: number | null;
  score_rounded?: number | null;
  pairwise_choice?: string | null;
  confidence: number | null;
  position_consistent?: boolean | null;
  error_kind?: string;
}

const usage0 = (): TokenUsage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
function addTo(a: TokenUsage, b: TokenUsage): void {
  a.promptTokens += b.promptTokens;
  a.completionTokens += b.completionTokens;
  a.totalTokens += b.totalTokens;
}

/** Counters of a tiered run, for the summary. */
export class TierStats {
  rows = 0;
  escalated = 0;
  audited = 0;
  byReason: Record<string, number> = {};
  /** Tokens each tier spent. */
  screen = usage0();
  judge = usage0();
  /** Tokens the big judge would have spent on every row: its own where it ran, the screen's elsewhere. */
  allJudge = usage0();
  constructor(
    readonly screenModel: string,
    readonly judgeModel: string,
  ) {}
}

/** Which escalation rules a screen outcome meets, in a fixed order. */
export function escalationReasons(outcome: RowVerdict, rule: EscalationRule): EscalationReason[] {
  if (outcome.status === 'failed') return rule.failed === false ? [] : ['failed'];
  const c = outcome.columns;
  const reasons: EscalationReason[] = [];
  const confidence = c.confidence;
  if (rule.confidenceBelow !== undefined && typeof confidence === 'number' && confidence < rule.confidenceBelow) reasons.push('low-confidence');
  if (rule.inconsistent && c.position_consistent === false) reasons.push('inconsistent');
  const score = c.score;
  if (rule.band && typeof score === 'number' && score >= rule.band[0] && score <= rule.band[1]) reasons.push('band');
  return reasons;
}

/** Deterministic per row: the same seed picks the same rows whatever the order rows finish in. */
export function auditPick(seed: number, row: number, percent: number): boolean {
  if (percent <= 0) return false;
  const h = createHash('sha256').update(`${seed}:${row}`).digest();
  return (h.readUInt32BE(0) / 2 ** 32) * 100 < percent;
}

export function verdictOf(outcome: RowVerdict, kind: 'pointwise' | 'pairwise'): TierVerdict {
  const c = outcome.columns;
  const v: TierVerdict = { model: String(c.model ?? ''), confidence: typeof c.confidence === 'number' ? c.confidence : null };
  if (kind === 'pairwise') {
    v.pairwise_choice = (c.pairwise_choice as string | null | undefined) ?? null;
    v.position_consistent = (c.position_consistent as boolean | null | undefined) ?? null;
  } else {
    v.score = (c.score as number | null | undefined) ?? null;
    if ('score_rounded' in c) v.score_rounded = (c.score_rounded as number | null) ?? null;
  }
  if (outcome.status === 'failed') v.error_kind = outcome.kind;
  return v;
}

/** A stats view that also tallies this row's tokens for one tier. */
function tally(stats: RunStats, into: TokenUsage): RunStats {
  return new Proxy(stats, {
    get(target, prop, receiver) {
      if (prop === 'addUsage') {
        return (u: TokenUsage | undefined) => {
          target.addUsage(u);
          if (u) addTo(into, u);
        };
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

/** Judges a row in a context: a single judge or a panel (see engine/compose.ts). */
export type ContextJudge = (row: DatasetRow, ctx: EngineContext) => Promise<RowOutcome>;

/**
 * The tiered row judge: `judgeAt(row, ctx)` judges with whatever the context names, so the screen
 * is the same judge at the screen model, and `big` is the run's judge (one model, or a panel).
 */
export function tieredJudge(tiers: TierOptions, stats: TierStats, kind: 'pointwise' | 'pairwise', screen: ContextJudge, big: ContextJudge): ContextJudge {
  return async (row, ctx) => {
    const screenTokens = usage0();
    const judgeTokens = usage0();
    const screenCtx: EngineContext = {
      ...ctx,
      settings: { ...ctx.settings, model: tiers.screenModel },
      stats: tally(ctx.stats, screenTokens),
      ...(tiers.screenClient ? { client: tiers.screenClient, cacheScope: tiers.screenCacheScope ?? tiers.screenClient.id } : {}),
    };
    const judgeCtx: EngineContext = {
      ...ctx,
      settings: { ...ctx.settings, model: tiers.judgeModel ?? ctx.settings.model },
      stats: tally(ctx.stats, judgeTokens),
    };
    const first = await screen(row, screenCtx);
    if (first.status === 'aborted' || first.status === 'deferred') return first;
    const reasons = escalationReasons(first, tiers.escalate);
    const audited = reasons.length === 0 && tiers.audit !== undefined && auditPick(tiers.audit.seed, row.row, tiers.audit.percent);
    const second = reasons.length > 0 || audited ? await big(row, judgeCtx) : undefined;
    if (second?.status === 'aborted' || second?.status === 'deferred') return second;

    stats.rows++;
    if (reasons.length > 0) stats.escalated++;
    if (audited) stats.audited++;
    for (const r of reasons) stats.byReason[r] = (stats.byReason[r] ?? 0) + 1;
    addTo(stats.screen, screenTokens);
    addTo(stats.judge, judgeTokens);
    addTo(stats.allJudge, second ? judgeTokens : screenTokens);

    // The deciding tier's columns carry the verdict; both verdicts go under `m/tiers`.
    const decided = reasons.length > 0 && second ? second : first;
    const columns = {
      ...decided.columns,
      tier: decided === first ? 'screen' : 'judge',
      escalation: reasons,
      audit: audited,
      // audit_percent lets the threshold report weigh audited rows as the sample they are.
      tiers: { screen: verdictOf(first, kind), judge: second ? verdictOf(second, kind) : null, audit_percent: tiers.audit?.percent ?? 0 },
    };
    return decided.status === 'ok' ? { status: 'ok', columns } : { ...decided, columns };
  };
}

/** Parses `--escalate failed,inconsistent,confidence<0.7,band=2-4`. */
export function parseEscalation(text: string): { ok: true; rule: EscalationRule } | { ok: false; error: string } {
  const rule: EscalationRule = { failed: false };
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    let m: RegExpExecArray | null;
    if (part === 'failed') rule.failed = true;
    else if (part === 'inconsistent') rule.inconsistent = true;
    else if ((m = /^confidence<(0(?:\.\d+)?|1(?:\.0+)?)$/.exec(part))) rule.confidenceBelow = Number(m[1]);
    else if ((m = /^band=(-?\d+(?:\.\d+)?)-(-?\d+(?:\.\d+)?)$/.exec(part)) && Number(m[1]) <= Number(m[2])) rule.band = [Number(m[1]), Number(m[2])];
    else return { ok: false, error: `--escalate takes a comma list of failed, inconsistent, confidence<X (0–1) and band=LO-HI; got "${part}"` };
  }
  return { ok: true, rule };
}
