// Bias diagnostics, counted while streaming. They describe the judge, so they use every row where
// the judge's output (and the text they need) is present, labelled by humans or not.
import { booleanCell, isLabel, jsonCell, parseChoice, type Choice } from './labels';
import { PairColumns } from './ranks';
import type { DatasetRecord } from '../dataset';
import type { PairwiseBias, PointwiseBias, Rate, RuleViolations } from './types';

class RateCounter {
  hits = 0;
  n = 0;

  add(hit: boolean): void {
    this.n++;
    if (hit) this.hits++;
  }

  rate(): Rate {
    return { rate: this.n === 0 ? null : this.hits / this.n, n: this.n };
  }
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;

/** Length in Unicode code points, so an emoji counts once (as Python's len does). */
export function codePointLength(text: string): number {
  if (!SURROGATE_PAIR.test(text)) return text.length; // a native scan; most text has no astral characters
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The text fields whose lengths the bias figures use. */
export const TEXT_FIELDS = ['response', 'response_a', 'response_b', 'baseline_model_response'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/**
 * Where a record read for calibration (slim.ts) keeps the length of a text it did not keep: the
 * figures need only lengths. Symbols, so no column of the file can pose as one.
 */
export const LENGTH_OF: Readonly<Record<TextField, symbol>> = {
  response: Symbol('length of response'),
  response_a: Symbol('length of response_a'),
  response_b: Symbol('length of response_b'),
  baseline_model_response: Symbol('length of baseline_model_response'),
};

/** The length in code points of a text field, from the text or from the length kept in its place. */
export function textLength(record: DatasetRecord, field: TextField): number | undefined {
  // A slim record has the length and never the text; a full record, the other way round.
  const kept = (record as Record<symbol, unknown>)[LENGTH_OF[field]];
  if (typeof kept === 'number') return kept;
  const value = record[field];
  return typeof value === 'string' ? codePointLength(value) : undefined;
}

/** The lengths of the two responses of a pairwise row: response_a/response_b, or Vertex's baseline_model_response (A) and response (B). */
export function pairLengths(record: DatasetRecord): [number, number] | undefined {
  const a = textLength(record, 'response_a');
  const b = textLength(record, 'response_b');
  if (a !== undefined && b !== undefined) return [a, b];
  const baseline = textLength(record, 'baseline_model_response');
  const candidate = textLength(record, 'response');
  if (baseline !== undefined && candidate !== undefined) return [baseline, candidate];
  return undefined;
}

interface Pass {
  order: 'AB' | 'BA';
  winner: Choice;
}

/** The passes of a row; each winner is already mapped back to the original labels (design.md). */
function readPasses(value: unknown): Pass[] {
  const list = jsonCell(value);
  if (!Array.isArray(list)) return [];
  const passes: Pass[] = [];
  for (const item of list as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { order, winner } = item as { order?: unknown; winner?: unknown };
    const parsed = parseChoice(winner);
    const o = typeof order === 'string' ? order.trim().toUpperCase() : '';
    if ((o === 'AB' || o === 'BA') && isLabel(parsed)) passes.push({ order: o, winner: parsed });
  }
  return passes;
}

function preference(choice: Choice): number {
  return choice === 'A' ? 1 : choice === 'B' ? -1 : 0;
}

export class PairwiseBiasCounter {
  private readonly consistency = new RateCounter();
  private readonly firstPosition = new RateCounter();
  private readonly longer = new RateCounter();
  private readonly humanLonger = new RateCounter();
  private readonly lengthPreference = new PairColumns();

  private readonly passesColumn: string;
  private readonly consistentColumn: string;

  constructor(metric: string) {
    this.passesColumn = `${metric}/passes`;
    this.consistentColumn = `${metric}/position_consistent`;
  }

  add(record: DatasetRecord, judge: Choice | undefined, human: Choice | undefined): void {
    const passes = readPasses(record[this.passesColumn]);
    for (const p of passes) {
      if (p.winner !== 'TIE') this.firstPosition.add(p.winner === (p.order === 'AB' ? 'A' : 'B'));
    }
    const ab = passes.find((p) => p.order === 'AB');
    const ba = passes.find((p) => p.order === 'BA');
    if (ab && ba) {
      const recorded = booleanCell(record[this.consistentColumn]);
      this.consistency.add(recorded ?? ab.winner === ba.winner);
    }
    const lengths = pairLengths(record);
    if (!lengths) return;
    const difference = lengths[0] - lengths[1];
    if (judge !== undefined) {
      this.lengthPreference.push(difference, preference(judge));
      if (difference !== 0 && judge !== 'TIE') this.longer.add((difference > 0) === (judge === 'A'));
    }
    if (human !== undefined && difference !== 0 && human !== 'TIE') {
      this.humanLonger.add((difference > 0) === (human === 'A'));
    }
  }

  result(): PairwiseBias {
    return {
      position_consistency: this.consistency.rate(),
      first_position: this.firstPosition.rate(),
      longer_wins: this.longer.rate(),
      human_longer_wins: this.humanLonger.rate(),
      length_preference: this.lengthPreference.spearman(),
    };
  }
}

export class PointwiseBiasCounter {
  private readonly scoreLength = new PairColumns();
  private readonly humanLength = new PairColumns();

  add(record: DatasetRecord, judge: number | undefined, human: number | undefined): void {
    const length = textLength(record, 'response');
    if (length === undefined) return;
    if (judge !== undefined) this.scoreLength.push(judge, length);
    if (human !== undefined) this.humanLength.push(human, length);
  }

  result(): PointwiseBias {
    return { score_length: this.scoreLength.spearman(), human_rating_length: this.humanLength.spearman() };
  }
}

/** Rows breaking each template rule, from `m/rule_violations` (a list of {pass, rule, message}). */
export class RuleViolationCounter {
  private present = false;
  private n = 0;
  private withViolations = 0;
  private readonly byRule = new Map<string, number>();

  constructor(private readonly column: string) {}

  add(record: DatasetRecord): void {
    if (!Object.hasOwn(record, this.column)) return;
    this.present = true;
    const list = jsonCell(record[this.column]);
    if (!Array.isArray(list)) return;
    this.n++;
    const rules = new Set<string>();
    for (const v of list as unknown[]) {
      const rule = typeof v === 'object' && v !== null ? (v as { rule?: unknown }).rule : undefined;
      if (typeof rule === 'string' && rule !== '') rules.add(rule);
    }
    if (rules.size > 0) this.withViolations++;
    for (const rule of rules) this.byRule.set(rule, (this.byRule.get(rule) ?? 0) + 1);
  }

  /** undefined when no row has the column. */
  result(): RuleViolations | undefined {
    if (!this.present) return undefined;
    const by_rule: RuleViolations['by_rule'] = {};
    for (const rule of [...this.byRule.keys()].sort()) {
      const rows = this.byRule.get(rule) ?? 0;
      by_rule[rule] = { rows, rate: this.n === 0 ? null : rows / this.n };
    }
    const rate = this.n === 0 ? null : this.withViolations / this.n;
    return { rows_with_violations: this.withViolations, rate, n: this.n, by_rule };
  }
}
