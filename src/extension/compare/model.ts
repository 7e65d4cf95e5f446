// The compare view's data from two results files, free of `vscode`.
import { compareRuns, FIGURES, figureTitle, pairResults, significance, verdictLine } from '../../core/compare';
import { parseDataset } from '../../core/dataset';
import type { CompareView } from '../../protocol/compare';
import { metricsOf } from '../results/model/table';

const MAX_FLIPS = 500;

function text(v: unknown): string {
  return v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
}

/** A row the judge failed on: it carries an error message for the metric. */
function failed(record: Record<string, unknown>, metric: string): boolean {
  const e = record[`${metric}/error`];
  return typeof e === 'string' && e !== '';
}

export async function buildCompareView(
  files: { a: string; b: string; textA: string; textB: string },
  metricA?: string,
  metricB?: string,
): Promise<{ ok: true; view: CompareView } | { ok: false; error: string }> {
  const itemsA = parseDataset(files.textA, 'jsonl');
  const itemsB = parseDataset(files.textB, 'jsonl');
  const mA = metricA ?? metricsOf(itemsA.flatMap((i) => ('record' in i ? [i.record] : [])))[0];
  const mB = metricB ?? (metricA ? metricA : metricsOf(itemsB.flatMap((i) => ('record' in i ? [i.record] : [])))[0]);
  if (!mA || !mB) return { ok: false, error: `no verdict column in ${mA ? files.b : files.a}; pick two results files` };
  const paired = await pairResults(() => itemsA, () => itemsB);
  if (!paired.ok) return { ok: false, error: paired.error };
  if (paired.pairs.length === 0) return { ok: false, error: `${files.a} and ${files.b} share no "_row"; compare two runs of the same dataset` };
  const outcome = await compareRuns(paired.pairs, { metricA: mA, metricB: mB });
  if (!outcome.ok) return { ok: false, error: outcome.error };
  const r = outcome.report;
  const sig = significance(r, outcome.labelled, 'balanced_accuracy');
  const byRow = new Map(paired.pairs.map((p) => [p.row, p]));
  const failedA = paired.pairs.filter((p) => failed(p.a, mA)).length;
  const failedB = paired.pairs.filter((p) => failed(p.b, mB)).length;
  const h = r.human;
  return {
    ok: true,
    view: {
      a: files.a,
      b: files.b,
      metricA: mA,
      metricB: mB,
      kind: r.kind,
      n: r.n,
      failed: { a: failedA, b: failedB },
      noVerdict: { a: Math.max(0, r.no_verdict.a - failedA), b: Math.max(0, r.no_verdict.b - failedB) },
      only: { a: paired.onlyA.length, b: paired.onlyB.length },
      agreement: r.agreement,
      cohenKappa: r.cohen_kappa,
      flipped: r.flipped,
      meanShift: r.mean_shift,
      verdict: verdictLine(sig),
      direction: sig.direction,
      labelled: h?.n ?? 0,
      figures: h
        ? FIGURES.filter((f) => h.a[f] !== undefined).map((f) => ({ key: f, name: figureTitle(f), a: h.a[f] ?? null, b: h.b[f] ?? null, delta: h.delta[f] ?? null }))
        : [],
      mcnemarP: h?.mcnemar.p ?? null,
      ci: h?.balanced_accuracy_ci ?? null,
      labels: r.transition.labels.map(String),
      matrix: r.transition.matrix,
      flips: r.flips.slice(0, MAX_FLIPS).map((f) => {
        const p = byRow.get(f.row);
        return { row: f.row, a: String(f.a), b: String(f.b), justA: text(p?.a[`${mA}/justification`]), justB: text(p?.b[`${mB}/justification`]) };
      }),
      flipsOmitted: Math.max(0, r.flips.length - MAX_FLIPS),
      hashes: r.template_hashes,
    },
  };
}
