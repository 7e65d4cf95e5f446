// Agreement between the judges of a panel (issue #12), read from `m/judges` of a results file:
// Krippendorff's alpha over the judges' verdicts, Fleiss' kappa over rows every judge answered (as
// statsmodels computes it), the judge × judge Cohen's kappa matrix, each judge's own figures against
// the humans, how correlated the judges' errors are and how many independent judges that is worth.
// Also the stability of verdicts over samples (`m/flip_rate`), panel or not.
import type { DatasetRow } from '../dataset/types';
import { annotatorKappa, krippendorffAlpha, type AlphaLevel, type ReliabilityData } from '../labels/agreement';
import type { LabelValue } from '../labels/types';
import { calibrate } from './calibrate';
import { compareLabels } from './confusion';
import { columnsFor, isLabel, parseChoice, parseRating } from './labels';
import type { CalibrationKind, Figure } from './types';

export interface JudgeFigures {
  judge: string;
  /** Rows with both a human label and this judge's verdict. */
  n: number;
  accuracy: Figure;
  balanced_accuracy: Figure;
  cohen_kappa: Figure;
  quadratic_weighted_kappa?: Figure;
  spearman?: Figure;
}

export interface PanelFigures {
  judges: string[];
  /** Rows that carry `m/judges`. */
  rows: number;
  /** Rows where at least two judges answered: the units alpha rests on. */
  alpha_units: number;
  krippendorff_alpha: Partial<Record<AlphaLevel, Figure>> & { nominal: Figure };
  /** Over the rows every judge answered (`fleiss_n` of them). */
  fleiss_kappa: Figure;
  fleiss_n: number;
  /** `cohen_kappa[i][j]`: judges i and j over the rows both answered (`cohen_n[i][j]`). */
  cohen_kappa: Figure[][];
  cohen_n: number[][];
  /** Each judge against the humans, beside the panel's own figures (the main report). */
  per_judge: JudgeFigures[];
  /**
   * Mean Pearson correlation, over judge pairs, of the judges' errors on labelled rows (pointwise:
   * score − human rating; pairwise and pass/fail: 1 when the verdict differs from the human's).
   */
  error_correlation: Figure;
  error_pairs: number;
  /** n / (1 + (n − 1)·ρ̄): how many independent judges the panel is worth. */
  effective_judges: Figure;
}

export interface StabilityFigures {
  /** Rows with a `m/flip_rate` (judged with --samples). */
  rows: number;
  mean_flip_rate: Figure;
  mean_score_sd?: Figure;
  /** The least stable rows, highest flip rate first (at most 10, flip rate above 0). */
  least_stable: { row: number; flip_rate: number; score_sd?: number }[];
}

interface RowVotes {
  human: unknown;
  verdicts: (LabelValue | undefined)[];
}

/** Collects what the panel figures need as the calibration streams the file. */
export class PanelCollector {
  private readonly judgeIndex = new Map<string, number>();
  private readonly rows: { human: unknown; votes: Map<number, LabelValue> }[] = [];
  private readonly flips: { row: number; flip_rate: number; score_sd?: number }[] = [];

  // Column names made once: a key built per row costs more than the lookup.
  private readonly columns: { flip: string; sd: string; judges: string; rating: string; choice: string };

  constructor(private readonly metric: string) {
    const m = metric;
    this.columns = { flip: `${m}/flip_rate`, sd: `${m}/score_sd`, judges: `${m}/judges`, rating: `${m}/human_rating`, choice: `${m}/human_pairwise_choice` };
  }

  add(item: DatasetRow): void {
    const r = item.record;
    const c = this.columns;
    const flip = r[c.flip];
    if (typeof flip === 'number' && Number.isFinite(flip)) {
      const sd = r[c.sd];
      this.flips.push({ row: typeof r._row === 'number' ? r._row : item.row, flip_rate: flip, ...(typeof sd === 'number' ? { score_sd: sd } : {}) });
    }
    const judges = r[c.judges];
    if (!Array.isArray(judges)) return;
    const votes = new Map<number, LabelValue>();
    for (const j of judges) {
      if (!j || typeof j !== 'object') continue;
      const { judge, verdict } = j as { judge?: unknown; verdict?: unknown };
      if (typeof judge !== 'string') continue;
      let i = this.judgeIndex.get(judge);
      if (i === undefined) {
        i = this.judgeIndex.size;
        this.judgeIndex.set(judge, i);
      }
      if (typeof verdict === 'number' && Number.isFinite(verdict)) votes.set(i, verdict);
      else if (verdict === 'A' || verdict === 'B' || verdict === 'TIE') votes.set(i, verdict);
    }
    this.rows.push({ human: r[c.rating] ?? r[c.choice], votes });
  }

  stability(): StabilityFigures | undefined {
    if (this.flips.length === 0) return undefined;
    const sds = this.flips.flatMap((f) => (f.score_sd !== undefined ? [f.score_sd] : []));
    return {
      rows: this.flips.length,
      mean_flip_rate: meanOrNull(this.flips.map((f) => f.flip_rate)),
      ...(sds.length ? { mean_score_sd: meanOrNull(sds) } : {}),
      least_stable: [...this.flips].filter((f) => f.flip_rate > 0).sort((a, b) => b.flip_rate - a.flip_rate || a.row - b.row).slice(0, 10),
    };
  }

  async figures(kind: CalibrationKind): Promise<PanelFigures | undefined> {
    if (this.rows.length === 0) return undefined;
    const judges = [...this.judgeIndex.keys()];
    const k = judges.length;
    const table: RowVotes[] = this.rows.map((r) => ({ human: r.human, verdicts: judges.map((_, i) => r.votes.get(i)) }));
    const data: ReliabilityData = table.map((r) => r.verdicts);
    const numeric = table.every((r) => r.verdicts.every((v) => v === undefined || typeof v === 'number'));
    const alpha: PanelFigures['krippendorff_alpha'] = { nominal: krippendorffAlpha(data, 'nominal') };
    if (kind === 'pointwise' && numeric) {
      alpha.ordinal = krippendorffAlpha(data, 'ordinal');
      alpha.interval = krippendorffAlpha(data, 'interval');
    }
    const complete = table.filter((r) => r.verdicts.every((v) => v !== undefined));
    const cohen: Figure[][] = [];
    const cohenN: number[][] = [];
    for (let i = 0; i < k; i++) {
      cohen.push([]);
      cohenN.push([]);
      for (let j = 0; j < k; j++) {
        const pairs = table.flatMap((r) => (r.verdicts[i] !== undefined && r.verdicts[j] !== undefined ? [[r.verdicts[i], r.verdicts[j]] as [LabelValue, LabelValue]] : []));
        cohen[i]!.push(annotatorKappa(pairs));
        cohenN[i]!.push(pairs.length);
      }
    }
    const perJudge: JudgeFigures[] = [];
    for (let i = 0; i < k; i++) perJudge.push(await judgeFigures(judges[i]!, kind, this.metric, table.map((r) => [r.human, r.verdicts[i]])));
    const errors = errorCorrelation(kind, table, k);
    return {
      judges,
      rows: table.length,
      alpha_units: data.filter((u) => u.filter((v) => v !== undefined).length >= 2).length,
      krippendorff_alpha: alpha,
      fleiss_kappa: fleissKappa(categoryTable(complete.map((r) => r.verdicts as LabelValue[]))),
      fleiss_n: complete.length,
      cohen_kappa: cohen,
      cohen_n: cohenN,
      per_judge: perJudge,
      error_correlation: errors.mean,
      error_pairs: errors.pairs,
      effective_judges: errors.mean === null || 1 + (k - 1) * errors.mean <= 0 ? null : k / (1 + (k - 1) * errors.mean),
    };
  }
}

function meanOrNull(xs: readonly number[]): Figure {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/** One judge's verdicts against the humans, through the same calibration as the panel's. */
async function judgeFigures(judge: string, kind: CalibrationKind, metric: string, pairs: [unknown, LabelValue | undefined][]): Promise<JudgeFigures> {
  const cols = columnsFor(metric, kind);
  const items = pairs.map(([human, verdict], i): DatasetRow => ({ row: i + 1, line: i + 1, record: { [cols.human]: human, [cols.judge]: verdict ?? null } }));
  const outcome = await calibrate(items, metric);
  const r = outcome.ok ? outcome.report : undefined;
  return {
    judge,
    n: r?.n ?? 0,
    accuracy: r?.accuracy ?? null,
    balanced_accuracy: r?.balanced_accuracy ?? null,
    cohen_kappa: r?.cohen_kappa ?? null,
    ...(kind === 'pointwise' ? { quadratic_weighted_kappa: r?.quadratic_weighted_kappa ?? null, spearman: r?.spearman ?? null } : {}),
  };
}

/** Subjects × categories counts (categories: the values used, sorted), as statsmodels' aggregate_raters. */
export function categoryTable(rows: readonly (readonly LabelValue[])[]): number[][] {
  const cats = [...new Set(rows.flat())].sort(compareLabels);
  const at = new Map(cats.map((c, i) => [c, i]));
  return rows.map((r) => {
    const counts = new Array<number>(cats.length).fill(0);
    for (const v of r) counts[at.get(v)!]!++;
    return counts;
  });
}

/**
 * Fleiss' kappa as statsmodels' `fleiss_kappa(table, method='fleiss')`: observed agreement per
 * subject (Σ n_ij² − n) / (n(n − 1)) averaged, chance agreement Σ p_j² from the pooled margins.
 * Every subject must have the same number of raters (≥ 2); null when undefined.
 */
export function fleissKappa(table: readonly (readonly number[])[]): Figure {
  if (table.length === 0) return null;
  const n = table[0]!.reduce((a, b) => a + b, 0);
  if (n < 2 || table.some((r) => r.reduce((a, b) => a + b, 0) !== n)) return null;
  const total = n * table.length;
  const cats = table[0]!.length;
  let pExp = 0;
  for (let j = 0; j < cats; j++) {
    const p = table.reduce((a, r) => a + r[j]!, 0) / total;
    pExp += p * p;
  }
  const pMean = table.reduce((a, r) => a + (r.reduce((s, x) => s + x * x, 0) - n) / (n * (n - 1)), 0) / table.length;
  if (pExp === 1) return null;
  return (pMean - pExp) / (1 - pExp);
}

function pearson(xs: readonly number[], ys: readonly number[]): Figure {
  const n = xs.length;
  if (n < 2) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

/** Mean over judge pairs of the Pearson correlation of their errors on labelled rows both answered. */
function errorCorrelation(kind: CalibrationKind, table: readonly RowVotes[], k: number): { mean: Figure; pairs: number } {
  const errors = table.flatMap((r) => {
    if (kind === 'pointwise') {
      const h = parseRating(r.human);
      if (!isLabel(h)) return [];
      return [r.verdicts.map((v) => (typeof v === 'number' ? v - h : undefined))];
    }
    const h = parseChoice(r.human);
    if (!isLabel(h)) return [];
    return [r.verdicts.map((v) => (v === undefined ? undefined : v === h ? 0 : 1))];
  });
  const rs: number[] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const both = errors.filter((e) => e[i] !== undefined && e[j] !== undefined);
      const r = pearson(both.map((e) => e[i]!), both.map((e) => e[j]!));
      if (r !== null) rs.push(r);
    }
  }
  return { mean: meanOrNull(rs), pairs: rs.length };
}
