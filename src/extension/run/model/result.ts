// A results line (design.md "Results file") read back into what the run view shows. Pure and
// defensive: a line may come from an older version or a hand-edited file, so every column is
// checked and a missing verdict is never shown as a score.
import { VERDICT_COLUMNS, VERDICT_KINDS } from '../../../core/results/verdict';
import type { DimensionRow, PairPass, PanelView, ResultView, ViolationView } from '../../../protocol/run';

export type Line = Record<string, unknown>;
type Winner = 'A' | 'B' | 'TIE';

/**
 * The metric whose verdict a results line carries: the prefix of its `…/model` column (always
 * written by the engine), else of a verdict or error column. Human-label columns do not count.
 */
export function metricOf(line: Line): string | undefined {
  const keys = Object.keys(line);
  for (const suffix of ['model', ...VERDICT_KINDS.map((k) => VERDICT_COLUMNS[k].judge), 'error']) {
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
/** A categorical verdict: the judge's label, a non-empty string. */
const labelOf = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** Shows any JSON value as one readable string (strings verbatim). */
export function display(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/**
 * Reply fields beyond the template's schema: the engine keeps them under `m/extra`, and nowhere
 * else (design.md). Other `m/…` columns of the line may be the dataset's own (human labels such as
 * `m/human_rating/<criterion>`, inputs of a results file judged again): never shown as the judge's.
 */
function extras(line: Line, metric: string): { name: string; value: string }[] {
  const extra = obj(line[`${metric}/extra`]);
  return Object.entries(extra ?? {}).map(([k, v]) => ({ name: k, value: display(v) }));
}

/** What a pointwise `m/confidence` measures: the share of a panel's judges or of the samples that gave the verdict. */
function confidenceLabel(line: Line, metric: string, what = 'score'): string {
  if (Array.isArray(column(line, metric, 'judges'))) return `Share of the panel that gave this ${what}`;
  if (Array.isArray(column(line, metric, 'samples'))) return 'Agreement across samples';
  return 'Confidence';
}

function pairPasses(value: unknown): PairPass[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((p) => {
    const o = obj(p);
    if (!o || (o.order !== 'AB' && o.order !== 'BA') || !isWinner(o.winner)) return [];
    return [{ order: o.order, winner: o.winner, confidence: num(o.confidence), justification: str(o.justification) }];
  });
}

/** Headlines by the engine's error kind (`m/error_kind`, design.md "Results file"). */
const ERROR_TITLES: Record<string, string> = {
  'rate-limit': 'The endpoint kept rate-limiting the request (HTTP 429)',
  server: 'The endpoint answered with a server error (HTTP 5xx)',
  timeout: 'The judge did not answer in time',
  network: 'The endpoint could not be reached',
  auth: 'The endpoint refused the API key (HTTP 401/403)',
  'bad-request': 'The endpoint rejected the request (HTTP 4xx)',
  'invalid-reply': "The judge's reply could not be used, even after one repair request",
  render: 'The sample could not be rendered with this template',
  cancelled: 'The run was cancelled',
  'no-majority': 'The samples gave no majority verdict',
  quorum: 'Too few judges of the panel answered',
  internal: 'Judge Studio hit a bug on this row (please report it with the log)',
  'ambiguous-verdict': "The judge's reply gave different verdicts (`verdict.match: unique`), even after one repair request",
};

/** The headline for a failed row: by its error kind, never by the words of the message. */
export function errorTitle(kind: string | null | undefined): string {
  return (kind && ERROR_TITLES[kind]) ?? 'The judge run failed';
}

/** The engine's error kind of a failed line, when it wrote one. */
export function errorKindOf(line: Line, metric: string): string | null {
  const kind = column(line, metric, 'error_kind');
  return typeof kind === 'string' && kind !== '' ? kind : null;
}

/**
 * The verdict part of the run view for one results line, or null when the line carries no verdict
 * for `metric` (a score, a pairwise choice or a label: core's VERDICT_COLUMNS). `labels`: a
 * categorical template's labels, when the template is known.
 */
export function resultView(line: Line, metric: string, scale: { min: number; max: number } | null = null, labels: readonly string[] | null = null): ResultView | null {
  const col = (name: string) => column(line, metric, name);
  const error = col('error');
  if (typeof error === 'string' && error !== '') {
    const kind = errorKindOf(line, metric);
    return { kind: 'error', title: errorTitle(kind), errorKind: kind, message: error, passes: pairPasses(col('passes')) };
  }
  const repaired = col('repaired') === true ? { repaired: true } : {};
  const dims = obj(col('dimensions'));
  const choice = col('pairwise_choice');
  if (dims && isWinner(choice)) return { ...dimensionalView(line, metric, dims, choice), ...repaired };
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
      ...repaired,
    };
  }
  const label = labelOf(col(VERDICT_COLUMNS.categorical.judge));
  if (label !== null) {
    const confidence = num(col('confidence'));
    const passed = col('passed');
    return {
      kind: 'categorical',
      label,
      labels: labels ? [...labels] : null,
      passed: typeof passed === 'boolean' ? passed : null,
      justification: str(col('justification')),
      confidence,
      ...(confidence !== null ? { confidenceLabel: confidenceLabel(line, metric, 'label') } : {}),
      extras: extras(line, metric),
      ...repaired,
    };
  }
  const score = num(col('score'));
  if (score !== null) {
    const confidence = num(col('confidence'));
    return { kind: 'pointwise', score, scale, justification: str(col('justification')), confidence, ...(confidence !== null ? { confidenceLabel: confidenceLabel(line, metric) } : {}), extras: extras(line, metric), ...repaired };
  }
  return null;
}

function dimensionalView(line: Line, metric: string, dims: Record<string, unknown>, winner: Winner): Extract<ResultView, { kind: 'dimensional' }> {
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

/** A short verdict for lists: "score 4 / 5", "compliant · pass", "A wins", "TIE", "B · better", "error". */
export function verdictText(view: ResultView | null): string {
  if (!view) return 'no verdict';
  switch (view.kind) {
    case 'pointwise':
      return view.scale ? `score ${view.score} / ${view.scale.max}` : `score ${view.score}`;
    case 'categorical':
      return view.passed === null ? view.label : `${view.label} · ${view.passed ? 'pass' : 'fail'}`;
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

const HUMAN_COLUMNS = new Set(VERDICT_KINDS.map((k) => VERDICT_COLUMNS[k].human));

/** The input fields of a results line: without `_row` and the metric's output columns (human labels stay). */
export function inputRecord(line: Line, metric: string): Line {
  const prefix = `${metric}/`;
  return Object.fromEntries(
    Object.entries(line).filter(([k]) => k !== '_row' && (!k.startsWith(prefix) || HUMAN_COLUMNS.has(k.slice(prefix.length)) || k.startsWith(`${prefix}human_rating/`))),
  );
}

/** The panel part of the run view (`m/judges`), or null when the line is not a panel's. */
export function panelView(line: Line, metric: string): PanelView | null {
  const judges = column(line, metric, 'judges');
  if (!Array.isArray(judges)) return null;
  const choice = column(line, metric, 'pairwise_choice');
  const score = num(column(line, metric, 'score'));
  const verdict = isWinner(choice) ? choice : score !== null ? String(score) : labelOf(column(line, metric, VERDICT_COLUMNS.categorical.judge));
  const passes = Array.isArray(column(line, metric, 'passes')) ? (column(line, metric, 'passes') as unknown[]).map(obj) : [];
  const majority = column(line, metric, 'panel_majority');
  return {
    verdict,
    agreement: num(column(line, metric, 'panel_agreement')),
    majority: typeof majority === 'boolean' ? majority : null,
    judges: judges.flatMap((j) => {
      const o = obj(j);
      if (!o || typeof o.judge !== 'string') return [];
      const v = isWinner(o.verdict) ? o.verdict : num(o.verdict) !== null ? String(o.verdict) : labelOf(o.verdict);
      return [{
        judge: o.judge,
        verdict: v,
        confidence: num(o.confidence),
        consistent: typeof o.position_consistent === 'boolean' ? o.position_consistent : null,
        errorKind: typeof o.error_kind === 'string' ? o.error_kind : null,
        error: typeof o.error === 'string' ? o.error : null,
        passes: passes.flatMap((p) =>
          p && p.judge === o.judge && (p.order === 'AB' || p.order === 'BA') && isWinner(p.winner) ? [{ order: p.order, winner: p.winner }] : [],
        ),
        justification: str(o.justification),
        agrees: v !== null && v === verdict,
      }];
    }),
  };
}

/** "panel 2/3 agree" for lists, or null when the line is not a panel's. */
export function panelAgreementText(line: Line, metric: string): string | null {
  const p = panelView(line, metric);
  if (!p) return null;
  return `panel ${p.judges.filter((j) => j.agrees).length}/${p.judges.length} agree`;
}
