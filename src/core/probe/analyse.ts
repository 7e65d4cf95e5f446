// The probe report: per probe, how many verdicts changed against the original row and how far
// they moved (towards the perturbed response), with a seeded bootstrap interval of the mean shift.
import { errorKindAction } from '../results/errorKinds';
import { isLabel, parseChoice, parseRating } from '../calibration/labels';
import type { Figure, Label } from '../calibration/types';
import { isSkip, type DatasetItem } from '../dataset/types';
import { BOOTSTRAP_METHOD, mean, pairedBootstrap, type BootstrapOptions } from '../compare/stats';
import { ORIGINAL, PROBE_KEY, PROBES, SOURCE_KEY, type ProbeId } from './perturb';

export interface MovedRow {
  /** The source row in the original dataset. */
  row: number;
  probe: ProbeId;
  original: Label;
  perturbed: Label;
  /** Perturbed minus original: score points, or for pairwise B = 1, TIE = 0, A = −1. */
  shift: number;
}

export interface ProbeFigures {
  probe: ProbeId;
  description: string;
  /** Source rows where both the original and the perturbed copy have a verdict. */
  n: number;
  changed: number;
  /** changed / n; null when n is 0. */
  changed_share: Figure;
  mean_shift: Figure;
  /** 95% bootstrap interval of the mean shift. */
  mean_shift_ci: [number, number] | null;
  /** changed_share above the threshold. */
  susceptible: boolean;
  /** Rows that moved, largest |shift| first (at most 20). */
  moved: MovedRow[];
}

export interface ProbeReport {
  metric: string;
  kind: 'pointwise' | 'pairwise';
  /** The field the probes perturbed. */
  target: string;
  threshold: number;
  rows: number;
  /** Copies (originals included) without a verdict: the judge call failed. */
  failed: number;
  /** The failed copies by error kind (`<metric>/error_kind`; `unknown` without one). */
  failed_by_kind?: Record<string, number>;
  probes: ProbeFigures[];
  susceptible: ProbeId[];
  /** Pairwise: share of original rows whose verdict changed with the position swap. */
  position_inconsistent: Figure;
  method: string;
}

export interface AnalyseOptions {
  metric: string;
  kind: 'pointwise' | 'pairwise';
  target: string;
  probes: readonly ProbeId[];
  threshold: number;
  bootstrap?: BootstrapOptions;
}

const PAIR_VALUE: Record<string, number> = { A: -1, TIE: 0, B: 1 };

export async function analyseProbes(results: AsyncIterable<DatasetItem> | Iterable<DatasetItem>, opts: AnalyseOptions): Promise<ProbeReport> {
  const verdictColumn = `${opts.metric}/${opts.kind === 'pointwise' ? 'score' : 'pairwise_choice'}`;
  const bySource = new Map<number, Map<string, Label | null>>();
  let inconsistent = 0;
  let originals = 0;
  let failed = 0;
  const failedByKind: Record<string, number> = {};
  for await (const item of results) {
    if (isSkip(item)) continue;
    const r = item.record;
    const source = r[SOURCE_KEY];
    const probe = r[PROBE_KEY];
    if (typeof source !== 'number' || typeof probe !== 'string') continue;
    const parsed = opts.kind === 'pointwise' ? parseRating(r[verdictColumn]) : parseChoice(r[verdictColumn]);
    const verdict = isLabel<Label>(parsed) ? parsed : null;
    if (verdict === null) {
      failed++;
      const kind = r[`${opts.metric}/error_kind`];
      const k = typeof kind === 'string' && kind !== '' ? kind : 'unknown';
      failedByKind[k] = (failedByKind[k] ?? 0) + 1;
    }
    let copies = bySource.get(source);
    if (!copies) bySource.set(source, (copies = new Map()));
    copies.set(probe, verdict);
    if (probe === ORIGINAL && opts.kind === 'pairwise' && verdict !== null) {
      originals++;
      if (r[`${opts.metric}/position_consistent`] === false) inconsistent++;
    }
  }
  const value = (l: Label) => (typeof l === 'number' ? l : (PAIR_VALUE[l] ?? 0));
  const probes = opts.probes.map((probe): ProbeFigures => {
    const shifts: number[] = [];
    const moved: MovedRow[] = [];
    for (const [row, copies] of [...bySource].sort((x, y) => x[0] - y[0])) {
      const original = copies.get(ORIGINAL);
      const perturbed = copies.get(probe);
      if (original === undefined || original === null || perturbed === undefined || perturbed === null) continue;
      const shift = value(perturbed) - value(original);
      shifts.push(shift);
      if (perturbed !== original) moved.push({ row, probe, original, perturbed, shift });
    }
    const n = shifts.length;
    const ci = pairedBootstrap(n, (idx) => idx.reduce((s, i) => s + shifts[i]!, 0) / n, opts.bootstrap);
    const share = n === 0 ? null : moved.length / n;
    moved.sort((x, y) => Math.abs(y.shift) - Math.abs(x.shift) || x.row - y.row);
    return {
      probe,
      description: PROBES[probe].description,
      n,
      changed: moved.length,
      changed_share: share,
      mean_shift: mean(shifts),
      mean_shift_ci: ci ? [ci.low, ci.high] : null,
      susceptible: share !== null && share > opts.threshold,
      moved: moved.slice(0, 20),
    };
  });
  return {
    metric: opts.metric,
    kind: opts.kind,
    target: opts.target,
    threshold: opts.threshold,
    rows: bySource.size,
    failed,
    failed_by_kind: failedByKind,
    probes,
    susceptible: probes.filter((p) => p.susceptible).map((p) => p.probe),
    position_inconsistent: opts.kind === 'pairwise' && originals > 0 ? inconsistent / originals : null,
    method: `changed share > threshold marks a probe; mean shift interval: ${BOOTSTRAP_METHOD.replace('paired ', '')}`,
  };
}

export function formatProbeReport(r: ProbeReport): string {
  const num = (v: number | null, d = 3) => (v === null ? 'n/a' : v.toFixed(d));
  const signed = (v: number | null) => (v === null ? 'n/a' : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`);
  const out: string[] = [];
  const towards = r.kind === 'pairwise' ? `towards response B (${r.target}): B = +1, TIE = 0, A = −1` : 'in score points';
  out.push(`Bias probes of "${r.metric}" (${r.kind}) on ${r.rows} row(s); perturbed field "${r.target}"; shift ${towards}`);
  // Failures first: the figures below leave the failed copies out.
  if (r.failed > 0) {
    const kinds = Object.entries(r.failed_by_kind ?? {}).sort(([, a], [, b]) => b - a);
    out.push(`FAILED: ${r.failed} judged ${r.failed === 1 ? 'copy' : 'copies'} failed and are left out (${kinds.map(([k, n]) => `${k} ×${n}`).join(', ') || 'unknown'})`);
    for (const [k] of kinds) out.push(`  ${k}: ${errorKindAction(k)}`);
  }
  out.push('');
  out.push(`  ${'probe'.padEnd(17)}${'n'.padStart(5)}${'changed'.padStart(10)}${'share'.padStart(8)}${'mean shift'.padStart(12)}  95% CI`);
  for (const p of r.probes) {
    const ci = p.mean_shift_ci ? `${signed(p.mean_shift_ci[0])} to ${signed(p.mean_shift_ci[1])}` : 'n/a';
    out.push(
      `  ${p.probe.padEnd(17)}${String(p.n).padStart(5)}${String(p.changed).padStart(10)}${num(p.changed_share).padStart(8)}${signed(p.mean_shift).padStart(12)}  ${ci}${p.susceptible ? '  SUSCEPTIBLE' : ''}`,
    );
  }
  if (r.position_inconsistent !== null) out.push(`  position swap: ${num(r.position_inconsistent)} of original verdicts changed with the order`);
  out.push('');
  out.push(
    r.susceptible.length === 0
      ? `The judge is not susceptible to any probe (no probe changed more than ${r.threshold} of the verdicts).`
      : `The judge is susceptible to: ${r.susceptible.join(', ')} (changed more than ${r.threshold} of the verdicts).`,
  );
  return out.join('\n') + '\n';
}
