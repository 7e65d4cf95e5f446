// What compare hands a CI system: each figure a JUnit test case (the runs' agreement, and with
// human labels each figure of A and B), where only the `--fail-if-worse` figure can fail, as the
// exit code does; and a Markdown job summary with the verdict and the failed rows first.
import { junitXml, type JUnitCase } from '../ci/junit';
import { mdCell, mdTable, mdText } from '../ci/markdown';
import { figureTitle, verdictLine } from './format';
import { FIGURES, type CompareReport, type FigureName, type Significance } from './types';
import type { Figure } from '../calibration/types';

export interface CompareCi {
  a: string;
  b: string;
  metric: string;
  /** The `--fail-if-worse` figure, when given. */
  gate?: FigureName;
  time: number;
  timestamp: string;
}

function num(v: Figure | undefined): string {
  return v === null || v === undefined ? 'n/a' : v.toFixed(3);
}

function signed(v: Figure | undefined): string {
  return v === null || v === undefined ? 'n/a' : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`;
}

/** Why the gate could not be tested, or undefined when it could. */
export function gateProblem(sig: Significance): string | undefined {
  if (sig.direction === 'no-labels') return `the paired rows have no human labels, so B cannot be tested against A on ${sig.figure}`;
  if (sig.a === null || sig.b === null) return `${sig.figure} is undefined on these rows (all labels equal?); nothing to test`;
  return undefined;
}

function gatedCase(c: JUnitCase, sig: Significance): JUnitCase {
  const problem = gateProblem(sig);
  if (problem) return { ...c, error: { message: `--fail-if-worse ${sig.figure}: ${problem}`, type: 'compare' } };
  if (sig.direction !== 'worse') return { ...c, systemOut: verdictLine(sig) };
  const rule = sig.test === 'mcnemar' ? 'fails when McNemar p < 0.05 with B worse' : 'fails when the 95% CI of B−A lies below 0';
  return { ...c, failure: { message: `${verdictLine(sig)} (--fail-if-worse ${sig.figure} ${rule})`, type: 'worse' } };
}

function cases(r: CompareReport, sig: Significance, meta: CompareCi): JUnitCase[] {
  const classname = `compare.${meta.metric}`;
  const out: JUnitCase[] = [
    { name: 'runs: agreement', classname, systemOut: `A and B give the same verdict on ${num(r.agreement)} of ${r.n} paired rows` },
    { name: 'runs: cohen_kappa', classname, systemOut: `Cohen's kappa between A and B = ${num(r.cohen_kappa)}` },
    { name: 'runs: flipped', classname, systemOut: `${r.flipped} of ${r.n} paired rows changed verdict` },
  ];
  const h = r.human;
  for (const f of FIGURES) {
    if (f !== meta.gate && h?.a[f] === undefined) continue;
    const c: JUnitCase = { name: `human: ${f}`, classname };
    const values = `${figureTitle(f)}: A ${num(h?.a[f])} → B ${num(h?.b[f])} (${signed(h?.delta[f])})`;
    out.push(f === meta.gate ? gatedCase(c, sig) : { ...c, systemOut: values });
  }
  return out;
}

/** The JUnit document of one comparison. */
export function compareJUnit(r: CompareReport, sig: Significance, meta: CompareCi, text: string): string {
  const props: Array<[string, string]> = [['a', meta.a], ['b', meta.b], ['metric', meta.metric], ['kind', r.kind], ['n', String(r.n)], ['agreement', num(r.agreement)], ['flipped', String(r.flipped)]];
  if (meta.gate) props.push(['fail_if_worse', meta.gate]);
  const suite = { name: `compare ${meta.metric} (${meta.a} vs ${meta.b})`, timestamp: meta.timestamp, time: meta.time, properties: props, cases: cases(r, sig, meta), systemOut: text };
  return junitXml('judge-studio compare', [suite]);
}

/** The job summary: rows without a verdict first, the verdict (and the gate), the figures, then the flipped rows. */
export function compareSummary(r: CompareReport, sig: Significance, meta: CompareCi): string {
  const out: string[] = [`### Judge compare: ${mdText(meta.metric)} — A ${mdText(meta.a)} vs B ${mdText(meta.b)}`, ''];
  if (r.no_verdict.a + r.no_verdict.b > 0) out.push(`**Failures:** rows without a verdict (failed), left out of the figures: ${r.no_verdict.a} in A, ${r.no_verdict.b} in B.`, '');
  const problem = meta.gate ? gateProblem(sig) : undefined;
  const mark = !meta.gate ? '' : problem ? '❌ ' : sig.direction === 'worse' ? '❌ ' : '✅ ';
  out.push(`${mark}${mdText(problem ? `--fail-if-worse ${sig.figure}: ${problem}` : verdictLine(sig))}`, '');
  out.push(mdTable(['Between the runs', 'Value'], [['paired rows', String(r.n)], ['agreement', num(r.agreement)], ["Cohen's kappa", num(r.cohen_kappa)], ['flipped', String(r.flipped)]]));
  const h = r.human;
  if (h) {
    const rows = FIGURES.filter((f) => h.a[f] !== undefined).map((f) => [mdCell(figureTitle(f)), num(h.a[f]), num(h.b[f]), signed(h.delta[f])]);
    out.push(mdTable([`Human labels (${h.n} rows)`, 'A', 'B', 'B−A'], rows));
  }
  if (r.flips.length > 0) {
    const shown = r.flips.slice(0, 20).map((f) => [String(f.row), mdCell(String(f.a)), mdCell(String(f.b))]);
    out.push(mdTable(['Flipped row', 'A', 'B'], shown));
    if (r.flips.length > 20) out.push(`… and ${r.flips.length - 20} more flipped rows.\n`);
  }
  return out.join('\n') + '\n';
}

/** The JUnit document and summary of a compare that stopped before its figures. */
export function compareErrorJUnit(message: string, meta: CompareCi): string {
  const c: JUnitCase = { name: 'compare', classname: `compare.${meta.metric}`, error: { message, type: 'compare' } };
  return junitXml('judge-studio compare', [{ name: `compare ${meta.metric} (${meta.a} vs ${meta.b})`, timestamp: meta.timestamp, time: meta.time, properties: [['a', meta.a], ['b', meta.b], ['metric', meta.metric]], cases: [c] }]);
}

export function compareErrorSummary(message: string, meta: CompareCi): string {
  return `### Judge compare: ${mdText(meta.metric)} — A ${mdText(meta.a)} vs B ${mdText(meta.b)}\n\n❌ No figures: ${mdText(message)}\n\n`;
}
