// A results line (design.md "Results file") read back into what the run view shows. Pure and
// defensive: a line may come from an older version or a hand-edited file, so every column is
// checked and a missing verdict is never shown as a score.
import type { DimensionRow, PairPass, ResultView, ViolationView } from '../../../protocol/run';
import { isCriteriaOrTierColumn } from './criteria';

export type Line = Record<string, unknown>;
type Winner = 'A' | 'B' | 'TIE';

/** Output columns the engine writes (no prefix); anything else under `metric/` is a template's extra reply field. */
const KNOWN = new Set([
  'score', 'justification', 'confidence', 'model', 'error', 'raw_replies', 'samples', 'score_mean', 'passes',
  'pairwise_choice', 'position_consistent', 'degree', 'ranking_a', 'ranking_b', 'dimensions', 'rule_violations',
  'human_rating', 'human_pairwise_choice',
  'template_hash', 'error_kind', 'extra', 'sample_agreement', 'flip_rate', 'score_sd', 'dimension_agreement',
]);

/**
 * The metric whose verdict a results line carries: the prefix of its `…/model` column (always
 * written by the engine), else of a verdict or error column. Human-label columns do not count.
 */
export function metricOf(line: Line): string | undefined {
  const keys = Object.keys(line);
  for (const suffix of ['model', 'score', 'pairwise_choice', 'error']) {
    const key = keys.find((k) => k.endsWith(`/${suffix}`) && k.length > suffix.length + 1);
    if (key) return key.slice(0, -(suffix.length + 1));
  }
  return undefined;
}

export function column(line: Line, metric: string, name: string): unknown {
  return line[`${metric}/${name}`];
}

const isWinner = (v: unknown): v is Winner => v === 'A' || v === 'B' || v === 'TIE';
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** Shows any JSON value as one readable string (strings verbatim). */
export function display(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

function extras(line: Line, metric: string): { name: string; value: string }[] {
  const prefix = `${metric}/`;
  const loose = Object.entries(line)
    .filter(([k]) => k.startsWith(prefix) && !KNOWN.has(k.slice(prefix.length)) && !isCriteriaOrTierColumn(k.slice(prefix.length)))
    .map(([k, v]) => ({ name: k.slice(prefix.length), value: display(v) }));
  // Reply fields beyond the schema are kept under `m/extra` (older files wrote them as columns).
  const extra = obj(line[`${prefix}extra`]);
  return [...loose, ...Object.entries(extra ?? {}).map(([k, v]) => ({ name: k, value: display(v) }))];
}

function pairPasses(value: unknown): PairPass[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((p) => {
    const o = obj(p);
    if (!o || (o.order !== 'AB' && o.order !== 'BA') || !isWinner(o.winner)) return [];
    return [{ order: o.order, winner: o.winner, confidence: num(o.confidence), justification: str(o.justification) }];
  });
}

/** Names an error by what went wrong, from the engine's message (see core/judge/errors.ts). */
export function errorTitle(message: string): string {
  if (/invalid reply|still invalid after/i.test(message)) return "The judge's reply could not be used (not valid JSON for this template, even after one repair request)";
  if (/rate limited \(429\)/i.test(message)) return 'The endpoint kept rate-limiting the request (HTTP 429)';
  if (/request rejected \(\d{3}\)|server error \(\d{3}\)/i.test(message)) return 'The endpoint answered with an HTTP error';
  if (/cannot reach|connection failed/i.test(message)) return 'The endpoint could not be reached';
  if (/no complete reply within/i.test(message)) return 'The judge did not answer in time';
  if (/cancelled/i.test(message)) return 'The run was cancelled';
  if (/field|placeholder|render/i.test(message)) return 'The sample could not be rendered with this template';
  return 'The judge run failed';
}

/** The verdict part of the run view for one results line, or null when the line carries no verdict for `metric`. */
export function resultView(line: Line, metric: string, scale: { min: number; max: number } | null = null): ResultView | null {
  const col = (name: string) => column(line, metric, name);
  const error = col('error');
  if (typeof error === 'string' && error !== '') {
    return { kind: 'error', title: errorTitle(error), message: error, passes: pairPasses(col('passes')) };
  }
  const dims = obj(col('dimensions'));
  const choice = col('pairwise_choice');
  if (dims && isWinner(choice)) return dimensionalView(line, metric, dims, choice);
  if (isWinner(choice)) {
    const consistent = col('position_consistent');
    return {
      kind: 'pairwise',
      winner: choice,
      confidence: num(col('confidence')),
      consistent: typeof consistent === 'boolean' ? consistent : null,
      justification: str(col('justification')),
      passes: pairPasses(col('passes')),
      extras: extras(line, metric),
    };
  }
  const score = num(col('score'));
  if (score !== null) {
    return { kind: 'pointwise', score, scale, justification: str(col('justification')), confidence: num(col('confidence')), extras: extras(line, metric) };
  }
  return null;
}

function dimensionalView(line: Line, metric: string, dims: Record<string, unknown>, winner: Winner): ResultView {
  const col = (name: string) => column(line, metric, name);
  const passes = Array.isArray(col('passes'))
    ? (col('passes') as unknown[]).flatMap((p) => {
        const o = obj(p);
        const ranking = obj(o?.ranking);
        const deflection = obj(o?.deflection);
        if (!o || (o.order !== 'AB' && o.order !== 'BA') || !isWinner(o.winner)) return [];
        return [{
          order: o.order as 'AB' | 'BA',
          winner: o.winner,
          degree: str(o.degree),
          rankingA: num(ranking?.A) ?? Number.NaN,
          rankingB: num(ranking?.B) ?? Number.NaN,
          deflectionA: deflection?.A === true,
          deflectionB: deflection?.B === true,
          justification: str(o.justification),
        }];
      }).filter((p) => Number.isFinite(p.rankingA) && Number.isFinite(p.rankingB))
    : [];
  const passCount = Math.max(1, passes.length);
  const dimensions: DimensionRow[] = Object.entries(dims).flatMap(([name, value]) => {
    const d = obj(value);
    if (!d || !isWinner(d.winner)) return [];
    const byPass = Array.isArray(d.passes) ? (d.passes as unknown[]).map(obj) : [];
    const cells = Array.from({ length: passCount }, (_, i) => {
      const cell = byPass.find((c) => c?.pass === i + 1);
      return cell && isWinner(cell.winner) ? { winner: cell.winner, degree: str(cell.degree) } : null;
    });
    return [{ name, passes: cells, final: { winner: d.winner, degree: str(d.degree) } }];
  });
  const consistent = col('position_consistent');
  return {
    kind: 'dimensional',
    winner,
    degree: str(col('degree')),
    confidence: num(col('confidence')),
    consistent: typeof consistent === 'boolean' ? consistent : null,
    justification: str(col('justification')),
    rankingA: num(col('ranking_a')),
    rankingB: num(col('ranking_b')),
    dimensions,
    passes,
    violations: violations(col('rule_violations')),
  };
}

export function violations(value: unknown): ViolationView[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => {
    const o = obj(v);
    if (!o || typeof o.message !== 'string') return [];
    return [{ pass: typeof o.pass === 'number' && Number.isInteger(o.pass) ? o.pass : null, rule: str(o.rule) || 'rule', message: o.message }];
  });
}

/** Raw replies a failed row kept (`metric/raw_replies`). */
export function rawReplies(line: Line, metric: string): string[] {
  const raw = column(line, metric, 'raw_replies');
  return Array.isArray(raw) ? raw.filter((r): r is string => typeof r === 'string') : [];
}

/** A short verdict for lists: "score 4 / 5", "A wins", "TIE", "B · better", "error". */
export function verdictText(view: ResultView | null): string {
  if (!view) return 'no verdict';
  switch (view.kind) {
    case 'pointwise':
      return view.scale ? `score ${view.score} / ${view.scale.max}` : `score ${view.score}`;
    case 'pairwise':
      return view.winner === 'TIE' ? 'TIE' : `${view.winner} wins`;
    case 'dimensional':
      return view.winner === 'TIE' ? `TIE · ${view.degree}` : `${view.winner} · ${view.degree}`;
    case 'error':
      return 'error';
  }
}

/** "consistent", "position-inconsistent", or null when there was no swap (pointwise, swap off, error). */
export function consistencyText(view: ResultView | null): string | null {
  if (!view || (view.kind !== 'pairwise' && view.kind !== 'dimensional') || view.consistent === null) return null;
  return view.consistent ? 'consistent' : 'position-inconsistent';
}

/** The input fields of a results line: without `_row` and the metric's output columns (human labels stay). */
export function inputRecord(line: Line, metric: string): Line {
  const prefix = `${metric}/`;
  return Object.fromEntries(
    Object.entries(line).filter(([k]) => k !== '_row' && (!k.startsWith(prefix) || k === `${prefix}human_rating` || k === `${prefix}human_pairwise_choice` || k.startsWith(`${prefix}human_rating/`))),
  );
}
