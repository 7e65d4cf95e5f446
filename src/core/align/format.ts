// The align report as text for a terminal: one line per template with its train and held-out
// figures, the held-out change with its interval and McNemar's p, the overfit flag and the cost;
// then the refused and unrun candidates, and the verdict.
import { errorKindAction } from '../results/errorKinds';
import type { AlignReport, CandidateReport, PartFigures } from './types';

const num = (v: number | null | undefined, d = 3) => (v === null || v === undefined ? '—' : v.toFixed(d));
const signed = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`);

function pValue(p: number | null): string {
  if (p === null) return '—';
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

function kappa(f: PartFigures | null): string {
  if (!f) return '—';
  return num(f.quadratic_weighted_kappa !== undefined ? f.quadratic_weighted_kappa : f.cohen_kappa, 2);
}

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
}

export function formatAlignReport(r: AlignReport): string {
  const kLabel = r.kind === 'pointwise' ? 'qwκ' : 'κ';
  const header = ['', 'train acc', 'held-out acc', 'bal. acc', kLabel, 'Δ held-out [95% CI]', 'McNemar p', 'overfit', 'calls'];
  const widths = [22, 9, 12, 8, 5, 24, 9, 7, 5];
  const failures = failureLines(r);
  const baseTrain = r.baseline.train;
  const lines: string[] = [
    `align ${r.metric} (${r.kind}): ${r.split.train + r.split.heldout} labelled row(s) → train ${r.split.train}, held-out ${r.split.heldout} (seed ${r.split.seed}, stratified by the human label)`,
    ...failures,
    baseTrain && baseTrain.n === 0 && baseTrain.failed > 0
      ? 'the current template judged no train row, so there are no disagreements to draft candidates from'
      : `the current template disagrees with ${r.train_disagreements} train label(s)${baseTrain && baseTrain.failed > 0 ? ` of the ${baseTrain.n} it judged` : ''}`,
    '',
    row(header, widths),
    row(['current template', num(r.baseline.train?.accuracy), num(r.baseline.heldout?.accuracy), num(r.baseline.heldout?.balanced_accuracy), kappa(r.baseline.heldout), '', '', '', String(r.baseline.calls)], widths),
  ];
  for (const c of r.candidates) lines.push(row(candidateCells(c), widths));
  lines.push(`(balanced accuracy and ${kLabel} on held-out rows; Δ against the current template on the held-out rows both judged)`);
  for (const c of r.candidates) for (const n of c.notes) lines.push(`  ${c.id}: ${n}`);
  if (r.refused.length > 0) {
    lines.push('', 'not built:');
    for (const x of r.refused) lines.push(`  ${x.id}: ${x.reason}`);
  }
  if (r.not_run.length > 0) {
    lines.push('', 'not judged:');
    for (const x of r.not_run) lines.push(`  ${x.id} on ${x.part === 'heldout' ? 'held-out' : 'train'} rows: ${x.reason}`);
  }
  lines.push('', `calls: ${r.total.calls} (author model ${r.author.model}: ${r.author.calls})${r.budget ? `, budget ${r.budget.used}/${r.budget.limit}` : ''}; tokens: ${r.total.tokens}`);
  const best = r.candidates.find((c) => c.id === r.best);
  if (best) {
    lines.push(`best: ${best.id} → ${best.file} (held-out accuracy ${num(r.baseline.heldout?.accuracy)} → ${num(best.heldout?.accuracy)}, ${signed(best.delta?.accuracy)} ${ci(best)})`);
  } else {
    lines.push('best: none: no candidate beats the current template on the held-out rows with an interval above 0');
  }
  const overfit = r.candidates.filter((c) => c.overfit === true).map((c) => c.id);
  if (overfit.length > 0) lines.push(`overfit: ${overfit.join(', ')} gained more on the train rows they were made from than on held-out rows`);
  return `${lines.join('\n')}\n`;
}

/** Failed rows come first, with their kinds and what to do: figures over the rest can look fine while most rows failed. */
function failureLines(r: AlignReport): string[] {
  const parts: [string, 'train' | 'held-out', PartFigures | null][] = [
    ['the current template', 'train', r.baseline.train],
    ['the current template', 'held-out', r.baseline.heldout],
    ...r.candidates.flatMap((c): [string, 'train' | 'held-out', PartFigures | null][] => [[c.id, 'train', c.train], [c.id, 'held-out', c.heldout]]),
  ];
  const out: string[] = [];
  const actions = new Map<string, string>();
  for (const [who, part, f] of parts) {
    if (!f || f.failed === 0) continue;
    const total = f.n + f.failed;
    const kinds = Object.entries(f.failed_by_kind ?? {}).sort(([, a], [, b]) => b - a);
    for (const [kind] of kinds) actions.set(kind, errorKindAction(kind));
    const share = f.failed === total ? `all ${total}` : `${f.failed} of ${total}`;
    out.push(`FAILED: ${who}: ${share} ${part} row${total === 1 ? '' : 's'} failed (${kinds.map(([k, n]) => `${k} ×${n}`).join(', ') || 'unknown'})${f.first_error ? `, e.g. ${oneLine(f.first_error)}` : ''}`);
  }
  for (const [kind, action] of actions) out.push(`  ${kind}: ${action}`);
  return out;
}

function oneLine(text: string, max = 200): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function ci(c: CandidateReport): string {
  return c.delta?.ci ? `[${signed(c.delta.ci[0])}, ${signed(c.delta.ci[1])}]` : '[—]';
}

function candidateCells(c: CandidateReport): string[] {
  const delta = c.delta ? `${signed(c.delta.accuracy)} ${ci(c)}` : '—';
  const flag = c.overfit === null ? '—' : c.overfit ? 'YES' : 'no';
  return [`${c.id}${c.status !== 'done' ? ` (${c.status})` : ''}`, num(c.train?.accuracy), num(c.heldout?.accuracy), num(c.heldout?.balanced_accuracy), kappa(c.heldout), delta, pValue(c.mcnemar_p), flag, String(c.calls)];
}
