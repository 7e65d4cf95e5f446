// The panel section of `judge-studio calibrate`'s text report: agreement between the judges, each
// judge against the humans beside the panel, how independent the judges are, and stability.
import type { PanelFigures, StabilityFigures } from './panel';
import { printable } from '../text';
import type { CalibrationReport, Figure } from './types';

const f3 = (x: Figure | undefined): string => (x === null || x === undefined ? 'n/a' : x.toFixed(3));

export function formatPanel(panel: PanelFigures, report: CalibrationReport): string {
  // Judge names come from the results file: escaped for the terminal.
  const p = { ...panel, judges: panel.judges.map((j) => printable(j, 40)), per_judge: panel.per_judge.map((j) => ({ ...j, judge: printable(j.judge, 40) })) };
  const out: string[] = [];
  out.push(`Panel of ${p.judges.length} judge(s) over ${p.rows} row(s)`);
  const alpha = Object.entries(p.krippendorff_alpha).map(([level, v]) => `${level} ${f3(v)}`).join(', ');
  out.push(`  Krippendorff's alpha        ${alpha}   (${p.alpha_units} rows where ≥ 2 judges answered)`);
  out.push(`  Fleiss' kappa               ${f3(p.fleiss_kappa)}   (${p.fleiss_n} rows every judge answered)`);
  out.push(`  error correlation (mean)    ${f3(p.error_correlation)}   (${p.error_pairs} judge pair(s), labelled rows)`);
  out.push(`  effective independent judges ${f3(p.effective_judges)} of ${p.judges.length}`);
  out.push('');
  out.push("Judge × judge Cohen's kappa");
  const w = Math.max(8, ...p.judges.map((j) => j.length));
  out.push(`  ${''.padEnd(w + 4)}${p.judges.map((_, i) => `#${i + 1}`.padStart(7)).join('')}`);
  p.judges.forEach((j, i) => out.push(`  ${`#${i + 1} ${j}`.padEnd(w + 4)}${p.cohen_kappa[i]!.map((k) => f3(k).padStart(7)).join('')}`));
  out.push('');
  out.push('Each judge against the humans (the panel: the figures above)');
  const pointwise = report.kind === 'pointwise';
  out.push(`  ${'judge'.padEnd(w)} ${'n'.padStart(5)} ${'accuracy'.padStart(9)} ${'kappa'.padStart(7)}${pointwise ? ` ${'QWK'.padStart(7)} ${'rho'.padStart(7)}` : ''}`);
  const row = (name: string, n: number, acc: Figure, k: Figure, qwk?: Figure, rho?: Figure) =>
    `  ${name.padEnd(w)} ${String(n).padStart(5)} ${f3(acc).padStart(9)} ${f3(k).padStart(7)}${pointwise ? ` ${f3(qwk).padStart(7)} ${f3(rho).padStart(7)}` : ''}`;
  out.push(row('panel', report.n, report.accuracy, report.cohen_kappa, report.quadratic_weighted_kappa, report.spearman));
  for (const j of p.per_judge) out.push(row(j.judge, j.n, j.accuracy, j.cohen_kappa, j.quadratic_weighted_kappa, j.spearman));
  return out.join('\n') + '\n';
}

export function formatStability(s: StabilityFigures): string {
  const out = [`Stability over samples (${s.rows} row(s) judged with --samples)`];
  out.push(`  mean flip rate              ${f3(s.mean_flip_rate)}`);
  if (s.mean_score_sd !== undefined) out.push(`  mean score sd               ${f3(s.mean_score_sd)}`);
  if (s.least_stable.length) out.push(`  least stable rows           ${s.least_stable.map((r) => `${r.row} (${r.flip_rate.toFixed(2)})`).join(', ')}`);
  return out.join('\n') + '\n';
}
