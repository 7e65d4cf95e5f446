// The report's data from what core computed: the calibration (calibrate's engine), its intervals,
// the panel and criteria figures, the threshold sweep and the comparison. Pure: the CLI reads files.
import type { CalibrationKind, CalibrationReport } from '../calibration/types';
import type { PanelFigures } from '../calibration/panel';
import type { CriteriaCalibration } from '../calibration/criteria';
import { figureTitle, verdictLine, type CompareReport, type Significance } from '../compare';
import type { SweepReport } from '../judge/tiers/thresholdSweep';
import { lineDiff } from './diff';
import { figureIntervals, INTERVAL_METHOD } from './intervals';
import { failuresByKind, verdictCounts } from './rows';
import type { CompareView, ReportData, ReportRow } from './types';

export interface ReportInput {
  file: string;
  metric: string;
  kind: CalibrationKind;
  rows: ReportRow[];
  /** The calibration, or why there is none (no human labels). */
  calibration: CalibrationReport | { error: string };
  labelsFile?: string;
  panel?: PanelFigures | undefined;
  criteria?: CriteriaCalibration | undefined;
  sweep?: SweepReport | undefined;
  /** The run's escalation rule (`m/escalation` of its rows), to mark on the sweep. */
  escalation?: string | undefined;
  compare?: CompareInput | { error: string } | undefined;
  /** The time stamped on the page (tests pass a fixed one). */
  now?: Date;
  /** Bootstrap resamples (tests pass fewer). */
  resamples?: number;
}

export interface CompareInput {
  fileB: string;
  report: CompareReport;
  sig: Significance;
  /** Template texts by `m/template_hash`, for the ones found under .judge-studio/templates. */
  templates: ReadonlyMap<string, string>;
}

export function reportData(input: ReportInput): ReportData {
  const cal = 'error' in input.calibration ? undefined : input.calibration;
  return {
    file: input.file,
    metric: input.metric,
    kind: input.kind,
    generated: (input.now ?? new Date()).toISOString(),
    total: input.rows.length,
    n: cal?.n ?? 0,
    labelled: cal?.labelled ?? 0,
    coverage: cal?.coverage ?? null,
    ...(input.labelsFile !== undefined ? { labelsFile: input.labelsFile } : {}),
    ...('error' in input.calibration ? { noFigures: input.calibration.error } : {}),
    figures: cal && cal.n > 0 ? figureIntervals(cal, input.resamples !== undefined ? { resamples: input.resamples } : {}) : [],
    intervalMethod: INTERVAL_METHOD,
    confusion: cal && cal.n > 0 ? { labels: cal.labels, matrix: cal.confusion_matrix } : null,
    verdicts: verdictCounts(input.rows),
    failures: failuresByKind(input.rows),
    panel: input.panel ?? null,
    criteria: input.criteria
      ? input.criteria.summary.map((s) => {
          const r = input.criteria!.criteria[s.criterion];
          return { name: s.criterion, n: r?.n ?? 0, accuracy: r?.accuracy ?? null, cohenKappa: r?.cohen_kappa ?? null, qwk: r?.quadratic_weighted_kappa ?? null };
        })
      : null,
    sweep: input.sweep ? { ...input.sweep, chosen: input.sweep.points.some((p) => p.rule === input.escalation) ? input.escalation! : null } : null,
    compare: input.compare === undefined ? null : 'error' in input.compare ? input.compare : compareView(input.compare, input.rows),
    rows: input.rows,
  };
}

/** The comparison as the page shows it; the flipped rows get B's verdict (`b`) on their row. */
function compareView(c: CompareInput, rows: ReportRow[]): CompareView {
  const { report, sig } = c;
  const byRow = new Map(rows.map((r) => [r.r, r]));
  for (const f of report.flips) {
    const row = byRow.get(f.row);
    if (row) row.b = f.b;
  }
  const h = report.human;
  const figures = h
    ? (Object.keys(h.delta) as (keyof typeof h.delta)[]).map((key) => ({ key, name: figureTitle(key), a: h.a[key] ?? null, b: h.b[key] ?? null, delta: h.delta[key] ?? null }))
    : [];
  return {
    fileB: c.fileB,
    n: report.n,
    agreement: report.agreement,
    cohenKappa: report.cohen_kappa,
    flipped: report.flipped,
    meanShift: report.mean_shift,
    verdict: verdictLine(sig),
    figures,
    ci: h?.balanced_accuracy_ci ?? null,
    mcnemarP: h?.mcnemar.p ?? null,
    hashes: report.template_hashes,
    diff: templateDiff(report.template_hashes, c.templates),
  };
}

function templateDiff(hashes: CompareReport['template_hashes'], templates: ReadonlyMap<string, string>): CompareView['diff'] {
  if (hashes.a.length !== 1 || hashes.b.length !== 1) {
    return { missing: `no single template version per side (A: ${hashes.a.length}, B: ${hashes.b.length} "template_hash" values)` };
  }
  const [a, b] = [hashes.a[0]!, hashes.b[0]!];
  if (a === b) return { missing: 'A and B used the same template version' };
  const ta = templates.get(a);
  const tb = templates.get(b);
  if (ta === undefined || tb === undefined) {
    return { missing: `the template snapshot of ${[ta === undefined ? a : '', tb === undefined ? b : ''].filter(Boolean).join(' and ')} is not under .judge-studio/templates/ in this folder (runs write it there)` };
  }
  const lines = lineDiff(ta, tb);
  return lines ? { lines } : { missing: 'the templates are too long to diff here' };
}
