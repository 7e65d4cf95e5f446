// The threshold report of a tiered run: for each escalation threshold the screen could have used,
// the share of rows it would escalate, how often the final verdict would agree with the big judge,
// and, where humans labelled rows, with them. Rows the big judge saw are the escalated ones (all of
// them) and an audited random P% of the rest, so an audited row stands for 100/P rows.
import { parseChoice, parseRating, isLabel } from '../../calibration/labels';
import type { DatasetRecord } from '../../dataset/types';
import type { TierVerdict } from './tiered';

export type SweepBy = 'confidence' | 'band';

export interface SweepPoint {
  /** `confidence<0.7`, `band=2-4` or `none`. */
  rule: string;
  escalated: number;
  escalation_rate: number;
  /** Estimated share of all rows whose final verdict equals the big judge's; null when no row tells. */
  agreement_judge: number | null;
  /** Share of labelled rows (whose final verdict is known) where it equals the human label. */
  agreement_human: number | null;
  human_n: number;
}

export interface SweepReport {
  metric: string;
  by: SweepBy;
  rows: number;
  /** Rows with both verdicts (escalated or audited). */
  both: number;
  audited: number;
  audit_percent: number;
  points: SweepPoint[];
}

interface Row {
  screen: TierVerdict;
  judge: TierVerdict | null;
  /** A kept row the big judge saw by the audit (`m/audit`). */
  audited: boolean;
  /** 1 for a row the big judge saw because it was escalated; 100/P for an audited one. */
  weight: number;
  human: string | number | undefined;
}


/** What two verdicts are compared on: the (rounded) score or the pairwise choice. */
function verdictKey(v: TierVerdict | null | undefined): string | number | undefined {
  if (!v || v.error_kind !== undefined) return undefined;
  if (v.pairwise_choice !== undefined) return v.pairwise_choice ?? undefined;
  return v.score_rounded ?? v.score ?? undefined;
}

function readRows(records: Iterable<DatasetRecord>, metric: string): { rows: Row[]; percent: number; pairwise: boolean } {
  const rows: Row[] = [];
  let percent = 0;
  let pairwise = false;
  for (const r of records) {
    const tiers = r[`${metric}/tiers`] as { screen?: TierVerdict; judge?: TierVerdict | null; audit_percent?: number } | undefined;
    if (!tiers || typeof tiers !== 'object' || !tiers.screen) continue;
    percent = typeof tiers.audit_percent === 'number' ? tiers.audit_percent : percent;
    if (tiers.screen.pairwise_choice !== undefined) pairwise = true;
    const audited = r[`${metric}/audit`] === true;
    const humanCell = pairwise ? parseChoice(r[`${metric}/human_pairwise_choice`]) : parseRating(r[`${metric}/human_rating`]);
    rows.push({ screen: tiers.screen, judge: tiers.judge ?? null, audited, weight: audited && percent > 0 ? 100 / percent : 1, human: isLabel(humanCell) ? humanCell : undefined });
  }
  return { rows, percent, pairwise };
}

function point(rule: string, rows: Row[], escalates: (r: Row) => boolean): SweepPoint {
  let escalated = 0;
  let agreeW = 0;
  let seenW = 0;
  let humanAgree = 0;
  let humanN = 0;
  for (const r of rows) {
    // A failed screen reply is always escalated: there is no screen verdict to keep.
    const up = verdictKey(r.screen) === undefined || escalates(r);
    if (up) escalated++;
    const big = verdictKey(r.judge);
    if (!up && big !== undefined) {
      seenW += r.weight;
      if (verdictKey(r.screen) === big) agreeW += r.weight;
    }
    const final = up ? big : verdictKey(r.screen);
    if (r.human !== undefined && final !== undefined) {
      humanN++;
      if (final === r.human) humanAgree++;
    }
  }
  const kept = rows.length - escalated;
  const agreement = kept === 0 ? 1 : seenW > 0 ? (escalated + kept * (agreeW / seenW)) / rows.length : null;
  return {
    rule,
    escalated,
    escalation_rate: rows.length ? escalated / rows.length : 0,
    agreement_judge: agreement,
    agreement_human: humanN ? humanAgree / humanN : null,
    human_n: humanN,
  };
}

export function sweepThresholds(records: Iterable<DatasetRecord>, metric: string, by?: SweepBy): SweepReport | { error: string } {
  const { rows, percent, pairwise } = readRows(records, metric);
  if (rows.length === 0) return { error: `no row has "${metric}/tiers"; run the template with --screen-model (and --audit P) first` };
  const confidences = rows.map((r) => r.screen.confidence).filter((c): c is number => typeof c === 'number');
  const mode: SweepBy = by ?? (confidences.length > 0 ? 'confidence' : 'band');
  const points: SweepPoint[] = [];
  if (mode === 'confidence') {
    if (confidences.length === 0) return { error: 'the screen verdicts carry no confidence (pointwise without --samples); sweep by band instead' };
    for (let i = 0; i <= 20; i++) {
      const t = i / 20;
      points.push(point(`confidence<${t}`, rows, (r) => typeof r.screen.confidence === 'number' && r.screen.confidence < t));
    }
  } else {
    if (pairwise) return { error: 'a pairwise verdict has no score to put in a band; sweep by confidence' };
    const scores = rows.map((r) => r.screen.score).filter((s): s is number => typeof s === 'number');
    const lo = Math.floor(Math.min(...scores));
    const hi = Math.ceil(Math.max(...scores));
    points.push(point('none', rows, () => false));
    for (let a = lo; a <= hi; a++) {
      for (let b = a; b <= hi; b++) points.push(point(`band=${a}-${b}`, rows, (r) => typeof r.screen.score === 'number' && r.screen.score >= a && r.screen.score <= b));
    }
    points.sort((x, y) => x.escalation_rate - y.escalation_rate || x.rule.localeCompare(y.rule));
  }
  return {
    metric,
    by: mode,
    rows: rows.length,
    both: rows.filter((r) => verdictKey(r.judge) !== undefined).length,
    // Counted by the flag: at --audit 100 an audited row weighs 1, as an escalated one does.
    audited: rows.filter((r) => r.audited).length,
    audit_percent: percent,
    points,
  };
}

export function formatSweep(r: SweepReport): string {
  const pct = (x: number | null) => (x === null ? '   –  ' : `${(x * 100).toFixed(1).padStart(5)}%`);
  const lines = [
    `${r.metric}: ${r.rows} screened row(s), ${r.both} with the big judge's verdict too (${r.audited} audited at ${r.audit_percent}%)`,
    `${'escalate when'.padEnd(18)} escalated  agree(judge)  agree(humans)`,
  ];
  for (const p of r.points) lines.push(`${p.rule.padEnd(18)} ${pct(p.escalation_rate)}     ${pct(p.agreement_judge)}       ${pct(p.agreement_human)}${p.human_n ? ` (n=${p.human_n})` : ''}`);
  if (r.audited === 0) lines.push('no audited rows: agreement with the judge on rows the screen kept is unknown; run with --audit P to measure it');
  return `${lines.join('\n')}\n`;
}
