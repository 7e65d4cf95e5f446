// Two runs of a judge on the same rows: how often they agree, which rows flipped, and — when
// humans labelled the rows — whether B agrees with the humans significantly better or worse than A.
import { calibrate } from '../calibration/calibrate';
import { calibrationRecord } from '../calibration/criteria';
import { cohenKappa, ConfusionCounter } from '../calibration/confusion';
import { columnsFor, isLabel, parseChoice, parseRating } from '../calibration/labels';
import type { CalibrationKind, CalibrationReport, Figure, Label } from '../calibration/types';
import type { DatasetRecord, DatasetRow } from '../dataset/types';
import { deltaInterval, indexPairs, mcnemarOnPairs, type LabelledPairs } from './figures';
import type { PairedRow } from './pair';
import { mean, type BootstrapOptions } from './stats';
import { FIGURES, type CompareReport, type Figures, type Flip, type HumanComparison } from './types';

export interface CompareOptions {
  metricA: string;
  /** Metric name in B when the template was renamed (default metricA). */
  metricB?: string;
  bootstrap?: BootstrapOptions;
}

export type CompareOutcome =
  | { ok: true; report: CompareReport; /** The labelled rows, for tests of other figures. */ labelled: LabelledPairs | undefined }
  | { ok: false; error: string };

function kindOf(records: Iterable<DatasetRecord>, metric: string): CalibrationKind | undefined {
  const point = columnsFor(metric, 'pointwise').judge;
  const pair = columnsFor(metric, 'pairwise').judge;
  for (const r of records) {
    if (Object.hasOwn(r, point)) return 'pointwise';
    if (Object.hasOwn(r, pair)) return 'pairwise';
  }
  return undefined;
}

function parse(kind: CalibrationKind, value: unknown): Label | undefined {
  const parsed = kind === 'pointwise' ? parseRating(value) : parseChoice(value);
  return isLabel<Label>(parsed) ? parsed : undefined;
}

function hashes(pairs: readonly PairedRow[], side: 'a' | 'b', metric: string): string[] {
  const set = new Set<string>();
  for (const p of pairs) {
    const h = p[side][`${metric}/template_hash`];
    if (typeof h === 'string' && h !== '') set.add(h);
  }
  return [...set].sort();
}

export async function compareRuns(paired: readonly PairedRow[], opts: CompareOptions): Promise<CompareOutcome> {
  const mA = opts.metricA;
  const mB = opts.metricB ?? mA;
  // A weighted-criteria judge's verdict is its integer overall (core/calibration/criteria.ts), as calibrate reads it.
  const pairs = paired.map((p) => ({ ...p, a: calibrationRecord(p.a, mA), b: calibrationRecord(p.b, mB) }));
  const kind = kindOf(
    pairs.map((p) => p.a),
    mA,
  );
  const kindB = kindOf(
    pairs.map((p) => p.b),
    mB,
  );
  if (kind === undefined) return { ok: false, error: `A has no verdict column "${mA}/score" or "${mA}/pairwise_choice" on the paired rows` };
  if (kindB === undefined) return { ok: false, error: `B has no verdict column "${mB}/score" or "${mB}/pairwise_choice" on the paired rows` };
  if (kind !== kindB) return { ok: false, error: `A is ${kind} and B is ${kindB}; compare runs of the same kind of template` };

  const colA = columnsFor(mA, kind);
  const colB = columnsFor(mB, kind);
  const transitions = new ConfusionCounter<Label>();
  const flips: Flip[] = [];
  const scoresA: number[] = [];
  const scoresB: number[] = [];
  const noVerdict = { a: 0, b: 0 };
  const labelled: { human: Label; a: Label; b: Label; pair: PairedRow }[] = [];
  let conflicts = 0;
  for (const p of pairs) {
    const a = parse(kind, p.a[colA.judge]);
    const b = parse(kind, p.b[colB.judge]);
    if (a === undefined) noVerdict.a++;
    if (b === undefined) noVerdict.b++;
    if (a === undefined || b === undefined) continue;
    transitions.add(a, b);
    if (a !== b) flips.push({ row: p.row, a, b });
    if (typeof a === 'number' && typeof b === 'number') {
      scoresA.push(a);
      scoresB.push(b);
    }
    const humanA = parse(kind, p.a[colA.human]);
    const humanB = parse(kind, p.b[colB.human]);
    if (humanA !== undefined && humanB !== undefined && humanA !== humanB) conflicts++;
    const human = humanA ?? humanB;
    if (human !== undefined) labelled.push({ human, a, b, pair: p });
  }
  const n = transitions.total;
  const transition = transitions.matrix();
  const agreement = n === 0 ? null : (n - flips.length) / n;
  const meanA = mean(scoresA);
  const meanB = mean(scoresB);
  const report: CompareReport = {
    metric_a: mA,
    metric_b: mB,
    kind,
    n,
    agreement,
    cohen_kappa: cohenKappa(transition.matrix),
    flipped: flips.length,
    flips,
    mean_shift: kind === 'pointwise' && meanA !== null && meanB !== null ? meanB - meanA : null,
    transition: { labels: transition.labels, matrix: transition.matrix },
    no_verdict: noVerdict,
    template_hashes: { a: hashes(pairs, 'a', mA), b: hashes(pairs, 'b', mB) },
    human: null,
  };
  if (labelled.length === 0) return { ok: true, report, labelled: undefined };
  const indexed = indexPairs(labelled);
  report.human = await humanComparison(kind, mA, mB, labelled, indexed, conflicts, opts.bootstrap);
  return { ok: true, report, labelled: indexed };
}

async function sideReport(metric: string, rows: DatasetRow[]): Promise<CalibrationReport> {
  const outcome = await calibrate(rows, metric, { maxNotes: 0 });
  if (!outcome.ok) throw new Error(`compare: calibration of the paired rows failed: ${outcome.error}`);
  return outcome.report;
}

async function humanComparison(
  kind: CalibrationKind,
  mA: string,
  mB: string,
  labelled: { human: Label; a: Label; b: Label; pair: PairedRow }[],
  indexed: LabelledPairs,
  conflicts: number,
  bootstrap: BootstrapOptions | undefined,
): Promise<HumanComparison> {
  // Each side is calibrated on exactly the same rows, against the same human label.
  const humanA = columnsFor(mA, kind).human;
  const humanB = columnsFor(mB, kind).human;
  const rowsA = labelled.map((l) => ({ row: l.pair.row, line: l.pair.row, record: { ...l.pair.a, [humanA]: l.human } }));
  const rowsB = labelled.map((l) => ({ row: l.pair.row, line: l.pair.row, record: { ...l.pair.b, [humanB]: l.human } }));
  const a = await sideReport(mA, rowsA);
  const b = await sideReport(mB, rowsB);
  const delta: Figures = {};
  for (const f of FIGURES) {
    const x = a[f];
    const y = b[f];
    if (x === undefined || y === undefined) continue;
    delta[f] = x === null || y === null ? null : y - x;
  }
  const ci = deltaInterval(indexed, 'balanced_accuracy', bootstrap);
  return {
    n: labelled.length,
    a,
    b,
    delta,
    mcnemar: mcnemarOnPairs(indexed),
    balanced_accuracy_ci: ci ? [ci.low, ci.high] : null,
    label_conflicts: conflicts,
  };
}

/** The figures of a calibration report that compare reports (calibrate --json names). */
export function figuresOf(report: CalibrationReport): Figures {
  const out: Figures = {};
  for (const f of FIGURES) {
    const v: Figure | undefined = report[f];
    if (v !== undefined) out[f] = v;
  }
  return out;
}
