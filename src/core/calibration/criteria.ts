// Calibration of a multi-criterion judge: the ordinary report once per criterion (judge column
// `m/score_<c>`, human column `m/human_rating/<c>`) and once for the overall score (its integer
// view `m/score_rounded` against `m/human_rating`), plus the criterion where judge and humans
// disagree most. A judge that is off on one criterion in one direction misleads more than noise.
import { isSkip, type DatasetItem, type DatasetRecord } from '../dataset';
import { calibrate } from './calibrate';
import type { CalibrationOutcome, CalibrationReport, Figure } from './types';

type Items = AsyncIterable<DatasetItem> | Iterable<DatasetItem>;

export interface CriterionDisagreement {
  criterion: string;
  n: number;
  /** Mean |judge − human| over the rows with both labels. */
  mean_abs_diff: Figure;
  /** Mean judge − human: positive when the judge scores higher than humans. */
  mean_diff: Figure;
}

export interface CriteriaCalibration {
  criteria: Record<string, CalibrationReport>;
  /** One line per criterion, in declaration order. */
  summary: CriterionDisagreement[];
  /** The criterion with the largest mean absolute difference (ties: the larger |mean_diff|, then the first). */
  most_disagreement: CriterionDisagreement | null;
}

/** True when a record is a results line of a multi-criterion judge for `metric`. */
export function isCriteriaRecord(record: DatasetRecord, metric: string): boolean {
  return Object.hasOwn(record, `${metric}/score_rounded`);
}

/** Criterion names in first-seen order, from `m/criteria` objects and `m/human_rating/<c>` columns. */
export async function findCriteria(items: Items, metric: string): Promise<string[]> {
  const names = new Set<string>();
  const prefix = `${metric}/human_rating/`;
  const add = (item: DatasetItem): void => {
    if (isSkip(item)) return;
    const detail = item.record[`${metric}/criteria`];
    if (detail && typeof detail === 'object' && !Array.isArray(detail)) Object.keys(detail).forEach((k) => names.add(k));
    for (const k of Object.keys(item.record)) if (k.startsWith(prefix) && k.length > prefix.length) names.add(k.slice(prefix.length));
  };
  // Rows in memory are walked without an await per row.
  if (Symbol.iterator in items) for (const item of items) add(item);
  else for await (const item of items) add(item);
  return [...names];
}

/** The items with their records through `f`; rows in memory stay an iterable that can be walked again. */
function mapped(items: Items, f: (r: DatasetRecord) => DatasetRecord): Items {
  const one = (item: DatasetItem): DatasetItem => (isSkip(item) ? item : { ...item, record: f(item.record) });
  if (Symbol.iterator in items) {
    return {
      *[Symbol.iterator]() {
        for (const item of items) yield one(item);
      },
    };
  }
  return (async function* () {
    for await (const item of items) yield one(item);
  })();
}

/** The overall score as calibrate reads it: the integer view stands in for the unrounded score. */
export function overallView(items: Items, metric: string): Items {
  return mapped(items, (r) => overallRecord(r, metric));
}

/** One record of overallView. */
export function overallRecord(record: DatasetRecord, metric: string): DatasetRecord {
  return isCriteriaRecord(record, metric) ? { ...record, [`${metric}/score`]: record[`${metric}/score_rounded`] } : record;
}

/** One criterion as an ordinary pointwise metric named `m/<c>`. */
export function criterionView(items: Items, metric: string, criterion: string): Items {
  const name = `${metric}/${criterion}`;
  return mapped(items, (r) => ({
    ...r,
    [`${name}/human_rating`]: r[`${metric}/human_rating/${criterion}`],
    [`${name}/score`]: r[`${metric}/score_${criterion}`],
    [`${name}/error`]: r[`${metric}/error`],
    [`${name}/error_kind`]: r[`${metric}/error_kind`],
  }));
}

/** Mean |j − h| and mean j − h from a confusion matrix over numeric labels (rows human, columns judge). */
export function disagreement(report: CalibrationReport, criterion: string): CriterionDisagreement {
  let abs = 0;
  let signed = 0;
  report.confusion_matrix.forEach((row, i) =>
    row.forEach((count, j) => {
      const d = Number(report.labels[j]) - Number(report.labels[i]);
      abs += count * Math.abs(d);
      signed += count * d;
    }),
  );
  const n = report.n;
  // Full precision: rounding is for display (formatCriteria).
  return { criterion, n, mean_abs_diff: n ? abs / n : null, mean_diff: n ? signed / n : null };
}

export async function calibrateCriteria(open: () => Items, metric: string, names: readonly string[]): Promise<{ ok: true; value: CriteriaCalibration } | { ok: false; error: string }> {
  const criteria: Record<string, CalibrationReport> = {};
  const summary: CriterionDisagreement[] = [];
  for (const c of names) {
    const outcome: CalibrationOutcome = await calibrate(criterionView(open(), metric, c), `${metric}/${c}`);
    if (!outcome.ok) return { ok: false, error: `criterion "${c}": ${outcome.error}` };
    criteria[c] = outcome.report;
    summary.push(disagreement(outcome.report, c));
  }
  let most: CriterionDisagreement | null = null;
  for (const s of summary) {
    if (s.mean_abs_diff === null) continue;
    if (!most || s.mean_abs_diff > (most.mean_abs_diff ?? -1) || (s.mean_abs_diff === most.mean_abs_diff && Math.abs(s.mean_diff ?? 0) > Math.abs(most.mean_diff ?? 0))) most = s;
  }
  return { ok: true, value: { criteria, summary, most_disagreement: most } };
}

export function formatCriteria(c: CriteriaCalibration): string {
  const f = (x: Figure | undefined) => (x === null || x === undefined ? '   –  ' : x.toFixed(3).padStart(6));
  const lines = ['', 'Per criterion (judge m/score_<criterion> vs human m/human_rating/<criterion>):', `  ${'criterion'.padEnd(22)}     n  accuracy  qw-kappa  mean|j-h|  mean(j-h)`];
  for (const s of c.summary) {
    const r = c.criteria[s.criterion]!;
    lines.push(`  ${s.criterion.padEnd(22)} ${String(s.n).padStart(5)}    ${f(r.accuracy)}    ${f(r.quadratic_weighted_kappa)}     ${f(s.mean_abs_diff)}     ${f(s.mean_diff)}`);
  }
  const m = c.most_disagreement;
  if (m && m.mean_diff !== null) {
    const dir = m.mean_diff > 0 ? 'higher' : m.mean_diff < 0 ? 'lower' : 'neither higher nor lower';
    lines.push(`Most disagreement: ${m.criterion} (mean |judge − human| ${f(m.mean_abs_diff).trim()}; the judge scores ${dir} than humans on average by ${f(Math.abs(m.mean_diff)).trim()}).`);
  }
  return `${lines.join('\n')}\n`;
}

/** `q/accuracy` → `{base: 'q', criterion: 'accuracy'}` when the record has that criterion's columns. */
export function criterionOf(record: DatasetRecord, metric: string): { base: string; criterion: string } | undefined {
  const i = metric.lastIndexOf('/');
  if (i <= 0) return undefined;
  const base = metric.slice(0, i);
  const criterion = metric.slice(i + 1);
  return Object.hasOwn(record, `${base}/score_${criterion}`) || Object.hasOwn(record, `${base}/human_rating/${criterion}`) ? { base, criterion } : undefined;
}

/** One record as `calibrate` should read it for `metric`: a criterion (`m/<c>`), the overall of a criteria judge, or as it is. */
export function calibrationRecord(record: DatasetRecord, metric: string): DatasetRecord {
  const c = criterionOf(record, metric);
  if (c) {
    return {
      ...record,
      [`${metric}/human_rating`]: record[`${c.base}/human_rating/${c.criterion}`],
      [`${metric}/score`]: record[`${c.base}/score_${c.criterion}`],
      [`${metric}/error`]: record[`${c.base}/error`],
      [`${metric}/error_kind`]: record[`${c.base}/error_kind`],
    };
  }
  return overallRecord(record, metric);
}
