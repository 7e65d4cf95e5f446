// The summary of a batch, from its results lines: the score distribution for pointwise; the
// count per label for categorical; for pairwise the win/tie/loss counts and the
// position-consistency rate; for multi-dimension templates also the rows whose judge broke a
// consistency rule. Stored in the history file.
import { z } from 'zod';
import { VERDICT_COLUMNS, type VerdictKind } from '../../../core/results/verdict';
import { column, type Line } from './result';

export const batchSummarySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('pointwise'),
    rows: z.number().int(),
    failed: z.number().int(),
    /** Count per score, keys are the scores as strings (JSON object keys), in numeric order. */
    scores: z.record(z.string(), z.number().int()),
    mean: z.number().nullable(),
    /** A panel's run: mean share of the panel agreeing with each row's verdict. */
    panelAgreement: z.number().nullable().optional(),
  }),
  z.object({
    kind: z.literal('pairwise'),
    rows: z.number().int(),
    failed: z.number().int(),
    wins: z.object({ A: z.number().int(), B: z.number().int(), TIE: z.number().int() }),
    /** Rows judged in both orders, and how many of those agreed. */
    swapped: z.number().int(),
    consistent: z.number().int(),
    /** consistent / swapped, null when no row was swapped. */
    consistencyRate: z.number().nullable(),
    /** Multi-dimension templates: rows with at least one rule violation; null for plain pairwise. */
    violationRows: z.number().int().nullable(),
    panelAgreement: z.number().nullable().optional(),
  }),
  z.object({
    kind: z.literal('categorical'),
    rows: z.number().int(),
    failed: z.number().int(),
    /** Count per label: the template's labels in its order, then any other label a line gave. */
    labels: z.array(z.object({ label: z.string(), count: z.number().int() })),
    /** Rows whose verdict passes (`m/passed`: the template's passing labels); null when no line says. */
    passed: z.number().int().nullable(),
    panelAgreement: z.number().nullable().optional(),
  }),
]);
export type BatchSummary = z.infer<typeof batchSummarySchema>;

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Accumulates a summary line by line, so a large results file is summarised while streamed. */
export class SummaryBuilder {
  private rows = 0;
  private failed = 0;
  private readonly counts = new Map<number, number>();
  private readonly labels = new Map<string, number>();
  private passed: number | null = null;
  private sum = 0;
  private scored = 0;
  private readonly wins = { A: 0, B: 0, TIE: 0 };
  private swapped = 0;
  private consistent = 0;
  private dimensional = false;
  private violationRows = 0;
  private agreementSum = 0;
  private agreementRows = 0;

  /** `kind` comes from the template (core's templateVerdictKind): a file of only failed rows has no verdict to tell it. */
  constructor(
    private readonly metric: string,
    private readonly kind: VerdictKind,
    scale?: { min: number; max: number },
    labels: readonly string[] = [],
  ) {
    if (kind === 'pointwise' && scale && scale.max - scale.min <= 20) for (let s = scale.min; s <= scale.max; s++) this.counts.set(s, 0);
    if (kind === 'categorical') for (const label of labels) this.labels.set(label, 0);
  }

  add(line: Line): void {
    this.rows++;
    const col = (name: string) => column(line, this.metric, name);
    const failed = typeof col('error') === 'string';
    const agreement = col('panel_agreement');
    if (typeof agreement === 'number' && Number.isFinite(agreement)) {
      this.agreementSum += agreement;
      this.agreementRows++;
    }
    if (this.kind === 'categorical') {
      const label = col(VERDICT_COLUMNS.categorical.judge);
      if (failed || typeof label !== 'string' || label === '') {
        this.failed++;
        return;
      }
      this.labels.set(label, (this.labels.get(label) ?? 0) + 1);
      const passed = col('passed');
      if (typeof passed === 'boolean') this.passed = (this.passed ?? 0) + (passed ? 1 : 0);
      return;
    }
    if (this.kind === 'pointwise') {
      const score = col('score');
      if (failed || typeof score !== 'number') {
        this.failed++;
        return;
      }
      this.counts.set(score, (this.counts.get(score) ?? 0) + 1);
      this.sum += score;
      this.scored++;
      return;
    }
    const choice = col('pairwise_choice');
    if (failed || (choice !== 'A' && choice !== 'B' && choice !== 'TIE')) {
      this.failed++;
      return;
    }
    this.wins[choice]++;
    const c = col('position_consistent');
    if (typeof c === 'boolean') {
      this.swapped++;
      if (c) this.consistent++;
    }
    const v = col('rule_violations');
    if (Array.isArray(v) || col('dimensions') !== undefined) this.dimensional = true;
    if (Array.isArray(v) && v.length > 0) this.violationRows++;
  }

  result(): BatchSummary {
    const { rows, failed } = this;
    const panel = this.agreementRows ? { panelAgreement: round(this.agreementSum / this.agreementRows) } : {};
    if (this.kind === 'pointwise') {
      const scores = Object.fromEntries([...this.counts.entries()].sort(([a], [b]) => a - b).map(([s, n]) => [String(s), n]));
      return { kind: 'pointwise', rows, failed, scores, mean: this.scored ? round(this.sum / this.scored) : null, ...panel };
    }
    if (this.kind === 'categorical') {
      return { kind: 'categorical', rows, failed, labels: [...this.labels].map(([label, count]) => ({ label, count })), passed: this.passed, ...panel };
    }
    return {
      kind: 'pairwise',
      rows,
      failed,
      wins: { ...this.wins },
      swapped: this.swapped,
      consistent: this.consistent,
      consistencyRate: this.swapped ? round(this.consistent / this.swapped) : null,
      violationRows: this.dimensional ? this.violationRows : null,
      ...panel,
    };
  }
}

export function summarize(lines: Iterable<Line>, metric: string, kind: VerdictKind, scale?: { min: number; max: number }, labels?: readonly string[]): BatchSummary {
  const builder = new SummaryBuilder(metric, kind, scale, labels);
  for (const line of lines) builder.add(line);
  return builder.result();
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The summary as short lines for the side panel (first line is the headline). */
export function summaryLines(s: BatchSummary): string[] {
  const failed = s.failed ? ` · ${s.failed} failed` : '';
  if (s.kind === 'pointwise') {
    const total = Object.values(s.scores).reduce((a, b) => a + b, 0);
    const widest = Math.max(1, ...Object.values(s.scores));
    const lines = [`${s.rows} rows · mean ${s.mean ?? '–'}${failed}`];
    if (typeof s.panelAgreement === 'number') lines.push(`panel agreement ${pct(s.panelAgreement)}`);
    for (const [score, n] of Object.entries(s.scores)) {
      const bar = '█'.repeat(Math.round((n / widest) * 12));
      lines.push(`score ${score}: ${n}${total ? ` (${pct(n / total)})` : ''} ${bar}`.trimEnd());
    }
    return lines;
  }
  if (s.kind === 'categorical') {
    const judged = s.labels.reduce((a, l) => a + l.count, 0);
    const widest = Math.max(1, ...s.labels.map((l) => l.count));
    const passed = s.passed !== null && judged ? ` · ${s.passed} passed (${pct(s.passed / judged)})` : '';
    const lines = [`${s.rows} rows${passed}${failed}`];
    if (typeof s.panelAgreement === 'number') lines.push(`panel agreement ${pct(s.panelAgreement)}`);
    for (const { label, count } of s.labels) lines.push(`${label}: ${count}${judged ? ` (${pct(count / judged)})` : ''} ${'█'.repeat(Math.round((count / widest) * 12))}`.trimEnd());
    return lines;
  }
  const rate = s.consistencyRate === null ? 'no swap' : `${pct(s.consistencyRate)} position-consistent`;
  const lines = [
    `${s.rows} rows · ${rate}${failed}`,
    `A wins ${s.wins.A} · TIE ${s.wins.TIE} · B wins ${s.wins.B}`,
    `B against A: win ${s.wins.B} / tie ${s.wins.TIE} / loss ${s.wins.A}`,
  ];
  if (s.swapped) lines.push(`position-consistent ${s.consistent} of ${s.swapped} swapped rows`);
  if (s.violationRows !== null) lines.push(`${s.violationRows} row${s.violationRows === 1 ? '' : 's'} with rule violations`);
  if (typeof s.panelAgreement === 'number') lines.push(`panel agreement ${pct(s.panelAgreement)}`);
  return lines;
}
