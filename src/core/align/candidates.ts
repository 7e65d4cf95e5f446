// Builds the candidate templates from the train disagreements: examples (K rows, and half as many),
// a rubric clarification, and their combinations, up to the number asked for. Author calls are
// made only for the candidates that will be built; anything the author model writes, and every
// line a candidate adds, is checked against the held-out rows, and a candidate that would quote
// one is refused, never written.
import { compareLabels } from '../calibration/confusion';
import type { AskDeps } from '../generate/ask';
import { prepareJudge, type PreparedJudge } from '../judge/engine/prepare';
import { parseTemplate } from '../template/parse';
import { draftClarification, draftJustification, withClarification, type Clarification, type Pattern } from './author';
import { disagreements, exampleFields, pickExamples, withExamples, type Disagreement, type ExampleBlock } from './examples';
import { describeQuote, type HeldOutGuard } from './quotes';
import type { CallsAndTokens, CandidateKind, LabelledRow, RefusedCandidate, Verdict } from './types';

export interface CandidatePlan {
  id: string;
  kind: CandidateKind;
  examples: ExampleBlock[];
  clarification?: Clarification;
  /** The candidate text before its provenance is recorded. */
  text: string;
  /** What the validator says about it short of an error (e.g. examples-unbalanced), for the report. */
  warnings: string[];
}

export interface BuildInput {
  judge: PreparedJudge;
  train: readonly LabelledRow[];
  baseTrain: ReadonlyMap<string, Verdict>;
  guard: HeldOutGuard;
  maxExamples: number;
  count: number;
  seed: number;
  author: AskDeps;
  log?: (message: string) => void;
}

export interface Built {
  plans: CandidatePlan[];
  refused: RefusedCandidate[];
  pool: number;
  author: CallsAndTokens & { model: string };
}

interface Spec {
  id: string;
  kind: CandidateKind;
  size: number;
}

/** The candidates in the order they are offered: the full example set first. */
export function candidateSpecs(maxExamples: number, count: number): Spec[] {
  const sizes = [...new Set([maxExamples, Math.ceil(maxExamples / 2)])].filter((k) => k >= 1);
  const specs: Spec[] = [];
  const [first, ...rest] = sizes;
  if (first !== undefined) specs.push({ id: `examples${first}`, kind: 'examples', size: first });
  specs.push({ id: 'rubric', kind: 'rubric', size: 0 });
  if (first !== undefined) specs.push({ id: `examples${first}-rubric`, kind: 'combined', size: first });
  for (const k of rest) specs.push({ id: `examples${k}`, kind: 'examples', size: k }, { id: `examples${k}-rubric`, kind: 'combined', size: k });
  return specs.slice(0, Math.max(1, count));
}

export async function buildCandidates(b: BuildInput): Promise<Built> {
  const t = b.judge.template;
  const fields = exampleFields(t, b.judge.keyFields);
  const pool = disagreements(b.train, b.baseTrain);
  const author = { model: b.author.model, calls: 0, tokens: 0 };
  const count = (o: { calls: number; usage: { totalTokens: number } }) => {
    author.calls += o.calls;
    author.tokens += o.usage.totalTokens;
  };
  const specs = candidateSpecs(b.maxExamples, b.count);
  const refused: RefusedCandidate[] = [];
  if (pool.length === 0) {
    const judged = b.train.filter((r) => b.baseTrain.get(r.key)?.label !== undefined).length;
    const why =
      judged === 0 && b.train.length > 0
        ? `the current template failed on all ${b.train.length} train rows, so there is no disagreement to learn from: fix the failures first`
        : 'the current template agrees with every train label: there is no disagreement to learn from';
    return { plans: [], refused: specs.map((s) => ({ id: s.id, kind: s.kind, reason: why })), pool: 0, author };
  }

  const largest = Math.max(0, ...specs.map((s) => s.size));
  const blocks = largest > 0 ? await exampleBlocks(b, fields, pool, largest, count) : { blocks: [], dropped: [] as string[] };
  let clarification: Clarification | { error: string } | undefined;
  if (specs.some((s) => s.kind !== 'examples')) clarification = await clarify(b, fields, pool, count);

  const plans: CandidatePlan[] = [];
  for (const spec of specs) {
    const refuse = (reason: string) => refused.push({ id: spec.id, kind: spec.kind, reason });
    const examples = blocks.blocks.slice(0, spec.size);
    if (spec.size > 0 && examples.length === 0) {
      refuse(`no example could be written (${groupReasons(blocks.dropped) || 'no usable disagreement'})`);
      continue;
    }
    if (spec.kind !== 'examples' && clarification && 'error' in clarification) {
      refuse(clarification.error);
      continue;
    }
    let text = t.text;
    if (examples.length > 0) {
      const w = withExamples(text, examples, b.judge.keyFields);
      if (!w.ok) {
        refuse(w.error);
        continue;
      }
      text = w.text;
    }
    if (spec.kind !== 'examples' && clarification && !('error' in clarification)) {
      const w = withClarification(parseTemplate(text), clarification);
      if (!w.ok) {
        refuse(w.error);
        continue;
      }
      text = w.text;
    }
    const checked = prepareJudge(text);
    if (!checked.ok) {
      const errors = checked.diagnostics.filter((d) => d.severity === 'error').slice(0, 3);
      refuse(`the candidate does not validate: ${errors.map((d) => `line ${d.line}: ${d.message}`).join('; ')}`);
      continue;
    }
    // The last guard, over every line the candidate adds to the template.
    const original = new Set(t.text.split('\n'));
    const added = text.split('\n').filter((l) => !original.has(l)).join('\n');
    const quote = b.guard.quote(added);
    if (quote) {
      refuse(`refused: ${describeQuote(quote)}`);
      continue;
    }
    const warnings = checked.warnings.map((d) => `${d.code}: ${d.message}`);
    plans.push({ id: spec.id, kind: spec.kind, examples, ...(clarification && !('error' in clarification) && spec.kind !== 'examples' ? { clarification } : {}), text, warnings });
  }
  return { plans, refused, pool: pool.length, author };
}

/** Author replies unusable in a row after which drafting stops: a model whose replies do not fit will not start fitting on the next row. */
export const MAX_UNUSABLE_IN_A_ROW = 3;

/** `why (rows 3, 5 and 8, ×3)`: one entry per distinct reason, in first-seen order. */
export function groupReasons(dropped: readonly { rows: number[]; why: string }[] | readonly string[]): string {
  const groups = new Map<string, number[]>();
  for (const d of dropped) {
    const { rows, why } = typeof d === 'string' ? { rows: [], why: d } : d;
    groups.set(why, [...(groups.get(why) ?? []), ...rows]);
  }
  return [...groups.entries()]
    .map(([why, rows]) => (rows.length === 0 ? why : rows.length === 1 ? `row ${rows[0]}: ${why}` : `${why} (rows ${rows.join(', ')}, ×${rows.length})`))
    .join('; ');
}

async function exampleBlocks(b: BuildInput, fields: string[], pool: Disagreement[], k: number, count: (o: { calls: number; usage: { totalTokens: number } }) => void): Promise<{ blocks: ExampleBlock[]; dropped: { rows: number[]; why: string }[] }> {
  const blocks: ExampleBlock[] = [];
  const dropped: { rows: number[]; why: string }[] = [];
  let unusable = 0;
  // Picked in turn; a row whose justification cannot be written gives its place to the next one.
  const ordered = pickExamples(pool, pool.length, b.seed);
  for (const d of ordered) {
    if (blocks.length >= k) break;
    if (d.row.comment) {
      const quote = b.guard.quote(d.row.comment);
      if (quote) dropped.push({ rows: [d.row.row], why: `its reviewer comment was left out because ${describeQuote(quote)}` });
      else blocks.push({ row: d.row, justification: d.row.comment, drafted: undefined });
      continue;
    }
    const asked = await draftJustification(b.judge.template, fields, d, b.author);
    count(asked);
    if (!asked.ok) {
      dropped.push({ rows: [d.row.row], why: asked.message });
      b.log?.(`example row ${d.row.row} left out: ${asked.message}`);
      if (asked.kind === 'aborted') break;
      if (++unusable >= MAX_UNUSABLE_IN_A_ROW) {
        dropped.push({ rows: [], why: `drafting stopped after ${MAX_UNUSABLE_IN_A_ROW} unusable author replies in a row; try another --author-model` });
        b.log?.(`${MAX_UNUSABLE_IN_A_ROW} unusable author replies in a row: no more examples are drafted`);
        break;
      }
      continue;
    }
    unusable = 0;
    const quote = b.guard.quote(asked.value.justification);
    if (quote) {
      dropped.push({ rows: [d.row.row], why: `the drafted justification was refused because ${describeQuote(quote)}` });
      continue;
    }
    blocks.push({ row: d.row, justification: asked.value.justification, drafted: { model: asked.model } });
  }
  return { blocks, dropped };
}

async function clarify(b: BuildInput, fields: string[], pool: Disagreement[], count: (o: { calls: number; usage: { totalTokens: number } }) => void): Promise<Clarification | { error: string }> {
  const shown = pickExamples(pool, 6, b.seed + 1);
  const asked = await draftClarification(b.judge.template, fields, patternOf(b.judge, pool), shown, b.author);
  count(asked);
  if (!asked.ok) return { error: asked.message };
  for (const c of asked.value.clarifications) {
    const quote = b.guard.quote(c);
    if (quote) return { error: `the drafted clarification was refused: ${describeQuote(quote)}` };
  }
  return asked.value;
}

/** The disagreement pattern the author model is told about. */
export function patternOf(judge: PreparedJudge, pool: readonly Disagreement[]): Pattern {
  const cells = new Map<string, { human: string; judge: string; n: number }>();
  let inconsistent = 0;
  const byCriterion = new Map<string, number>();
  for (const d of pool) {
    const id = `${String(d.row.label)}\u0000${String(d.verdict.label)}`;
    const cell = cells.get(id) ?? { human: String(d.row.label), judge: String(d.verdict.label), n: 0 };
    cell.n++;
    cells.set(id, cell);
    if (d.verdict.positionConsistent === false) inconsistent++;
    for (const [c, s] of Object.entries(d.verdict.criteria ?? {})) {
      const human = d.row.record[`${judge.metric}/human_rating/${c}`];
      if (typeof human === 'number' && compareLabels(human, s) !== 0) byCriterion.set(c, (byCriterion.get(c) ?? 0) + 1);
    }
  }
  const confusions = [...cells.values()].sort((x, y) => y.n - x.n).map((c) => `humans ${c.human}, judge ${c.judge}: ${c.n} row(s)`);
  const worst = [...byCriterion.entries()].sort((x, y) => y[1] - x[1])[0];
  return { confusions, positionInconsistent: inconsistent, total: pool.length, ...(worst ? { worstCriterion: { name: worst[0], rows: worst[1] } } : {}) };
}
