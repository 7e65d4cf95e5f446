// What compare says: the --json contract, the significance of one figure, and the text report
// whose last line says whether B is better, worse or not distinguishable from A.
import { figuresOf } from './compare';
import { deltaInterval, type LabelledPairs } from './figures';
import { BOOTSTRAP_METHOD, type BootstrapOptions } from './stats';
import { FIGURES, type CompareJson, type CompareReport, type FigureName, type Significance } from './types';

export const ALPHA = 0.05;

export function isFigureName(name: string): name is FigureName {
  return (FIGURES as readonly string[]).includes(name);
}

export function compareJson(r: CompareReport): CompareJson {
  return {
    n: r.n,
    agreement: r.agreement,
    cohen_kappa: r.cohen_kappa,
    flipped: r.flipped,
    flips: r.flips,
    mean_shift: r.mean_shift,
    human: r.human
      ? {
          a: figuresOf(r.human.a),
          b: figuresOf(r.human.b),
          delta: r.human.delta,
          mcnemar_p: r.human.mcnemar.p,
          balanced_accuracy_ci: r.human.balanced_accuracy_ci,
        }
      : null,
  };
}

/**
 * Accuracy is tested with McNemar's exact test (it is a test of paired correctness); every other
 * figure with the paired bootstrap interval of its difference. Significant at α = 0.05.
 */
export function significance(
  r: CompareReport,
  labelled: LabelledPairs | undefined,
  figure: FigureName,
  bootstrap: BootstrapOptions = {},
): Significance {
  const h = r.human;
  const a = h?.a[figure] ?? null;
  const b = h?.b[figure] ?? null;
  const delta = h?.delta[figure] ?? null;
  if (!h || !labelled) return { figure, a, b, delta, test: figure === 'accuracy' ? 'mcnemar' : 'bootstrap', direction: 'no-labels' };
  if (figure === 'accuracy') {
    const p = h.mcnemar.p;
    const sign = h.mcnemar.b_only_correct - h.mcnemar.a_only_correct;
    const direction = p < ALPHA && sign !== 0 ? (sign > 0 ? 'better' : 'worse') : 'not-distinguishable';
    return { figure, a, b, delta, test: 'mcnemar', p, direction };
  }
  let ci: [number, number] | null;
  if (figure === 'balanced_accuracy') ci = h.balanced_accuracy_ci;
  else {
    const interval = deltaInterval(labelled, figure, bootstrap);
    ci = interval ? [interval.low, interval.high] : null;
  }
  const direction = ci === null ? 'not-distinguishable' : ci[0] > 0 ? 'better' : ci[1] < 0 ? 'worse' : 'not-distinguishable';
  return { figure, a, b, delta, test: 'bootstrap', ci, direction };
}

const NAMES: Record<FigureName, string> = {
  accuracy: 'accuracy',
  balanced_accuracy: 'balanced accuracy',
  balanced_f1: 'balanced F1',
  cohen_kappa: "Cohen's kappa",
  quadratic_weighted_kappa: 'quadratic-weighted kappa',
  spearman: 'Spearman rho',
  kendall_tau: 'Kendall tau-b',
};

export function figureTitle(f: FigureName): string {
  return NAMES[f];
}

function num(v: number | null | undefined, digits = 3): string {
  return v === null || v === undefined ? 'n/a' : v.toFixed(digits);
}

function signed(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined) return 'n/a';
  return `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;
}

/** The one-line answer: better, worse or not distinguishable, with the evidence. */
export function verdictLine(s: Significance): string {
  const name = NAMES[s.figure];
  if (s.direction === 'no-labels') {
    return 'No human labels on the paired rows: compare cannot say whether B is better or worse than A, only how often they agree.';
  }
  const evidence =
    s.test === 'mcnemar'
      ? `${name} ${num(s.a)} → ${num(s.b)} (${signed(s.delta)}), McNemar exact p = ${formatP(s.p)}`
      : `${name} ${num(s.a)} → ${num(s.b)} (${signed(s.delta)}, 95% CI ${s.ci ? `${signed(s.ci[0])} to ${signed(s.ci[1])}` : 'undefined'})`;
  if (s.direction === 'better') return `B is better than A: ${evidence}.`;
  if (s.direction === 'worse') return `B is worse than A: ${evidence}.`;
  return `B is not distinguishable from A: ${evidence}; the difference is within what chance explains on these rows.`;
}

export function formatP(p: number | undefined): string {
  if (p === undefined) return 'n/a';
  return p < 0.0001 ? p.toExponential(1) : p.toFixed(4);
}

export function formatCompare(r: CompareReport, s: Significance, names: { a: string; b: string }): string {
  const out: string[] = [];
  const metric = r.metric_a === r.metric_b ? `"${r.metric_a}"` : `"${r.metric_a}" (A) / "${r.metric_b}" (B)`;
  out.push(`Comparing ${metric} (${r.kind}): A = ${names.a}, B = ${names.b}`);
  if (r.template_hashes.a.length > 0 && r.template_hashes.b.length > 0) {
    out.push(`  template A ${r.template_hashes.a.join(', ')}, template B ${r.template_hashes.b.join(', ')}`);
  }
  out.push(`  ${r.n} paired row${r.n === 1 ? '' : 's'} with both verdicts`);
  if (r.no_verdict.a + r.no_verdict.b > 0) out.push(`  rows without a verdict (failed): ${r.no_verdict.a} in A, ${r.no_verdict.b} in B`);
  out.push('');
  out.push('Between the runs');
  out.push(`  agreement                ${num(r.agreement)}  (share of rows with the same verdict)`);
  out.push(`  Cohen's kappa            ${num(r.cohen_kappa)}`);
  out.push(`  flipped                  ${r.flipped}`);
  if (r.kind === 'pointwise') out.push(`  mean score shift (B−A)   ${signed(r.mean_shift)}`);
  if (r.flips.length > 0) {
    const shown = r.flips.slice(0, 10).map((f) => `${f.row}: ${f.a}→${f.b}`);
    out.push(`  flips (row: A→B)         ${shown.join(', ')}${r.flips.length > 10 ? `, … ${r.flips.length - 10} more` : ''}`);
  }
  const h = r.human;
  if (h) {
    out.push('');
    out.push(`Agreement with human labels (${h.n} labelled row${h.n === 1 ? '' : 's'})`);
    out.push(`  ${'figure'.padEnd(26)}${'A'.padStart(8)}${'B'.padStart(8)}${'B−A'.padStart(9)}`);
    for (const f of FIGURES) {
      if (h.a[f] === undefined) continue;
      out.push(`  ${NAMES[f].padEnd(26)}${num(h.a[f]).padStart(8)}${num(h.b[f]).padStart(8)}${signed(h.delta[f]).padStart(9)}`);
    }
    out.push(
      `  McNemar exact (correctness): only A right ${h.mcnemar.a_only_correct}, only B right ${h.mcnemar.b_only_correct}, p = ${formatP(h.mcnemar.p)}`,
    );
    const ci = h.balanced_accuracy_ci;
    out.push(`  balanced accuracy B−A, 95% CI: ${ci ? `${signed(ci[0])} to ${signed(ci[1])}` : 'undefined'}`);
    out.push(`  (${BOOTSTRAP_METHOD})`);
    if (h.label_conflicts > 0) out.push(`  note: ${h.label_conflicts} row(s) have different human labels in A and B; A's label was used`);
  }
  out.push('');
  out.push(verdictLine(s));
  return out.join('\n') + '\n';
}
