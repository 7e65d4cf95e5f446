// The strategy seam, in a module of its own so the strategies (pointwise, pairwise, HHH) and the
// code that picks one import it without importing each other.
import type { z } from 'zod';
import type { TemplateConfig } from '../../template/types';
import { outputInstruction } from './replySchema';

/** A reply that cannot be used may say why as a row error kind (default `invalid-reply`). */
export type CheckOutcome<R> = { ok: true; value: R } | { ok: false; error: string; kind?: 'ambiguous-verdict' };

/** AB renders the row as given; BA renders it with responses A and B exchanged. */
export type PassOrder = 'AB' | 'BA';

export interface PassReply<R> {
  order: PassOrder;
  /** Already mapped back to the original labels. */
  reply: R;
  /** A schema-valid reply replaced after the strategy's follow-up, mapped back likewise. */
  superseded?: R;
}

export interface JudgeStrategy<R extends Record<string, unknown> = Record<string, unknown>, J = unknown> {
  readonly kind: string;
  /** Validates one reply (zod issues become the repair request's error text). */
  readonly schema: z.ZodType<R>;
  /** Sent as `response_format: {type: "json_schema"}`. */
  readonly jsonSchema: Record<string, unknown>;
  /** Restates the expected reply in a repair request. */
  readonly instruction: string;
  /**
   * Reads a reply from its text, replacing JSON extraction + `schema` (a text verdict format such
   * as FastChat's `[[N]]`). A strategy with `parse` is sent no structured-output request, unless `structuredParse`.
   */
  parse?(text: string): CheckOutcome<R>;
  /** With `parse`: the reply is still asked for with `jsonSchema` as structured output (a `json` verdict with `structured: true`). */
  readonly structuredParse?: boolean;
  /** The repair request for a reply `parse` could not read (default: the JSON repair message). */
  repair?(error: string): string;
  /**
   * What a JSON reply's verdict says, to tell two JSON verdicts in one reply apart (default: the
   * reply without its texts). Two different keys in one reply make it invalid, never a pick.
   */
  verdictKey?(reply: R): string;
  /**
   * `swap_rule: votes`: a pass that failed abstains, so a sample with one answered pass is judged
   * from it (the failed pass is listed in `passes`). Absent: any failed pass fails the row.
   */
  readonly abstain?: boolean;
  /** The orders one judgment renders, in the order passes are reported. */
  readonly orders: readonly PassOrder[];
  /** A reply to the prompt rendered in `order`, restated in the original labels. */
  mapBack(reply: R, order: PassOrder): R;
  /**
   * Optional check of a schema-valid reply as the judge wrote it (before mapBack): a message here
   * is sent once as a follow-up, and a valid answer to it replaces the reply (kept as `superseded`).
   */
  followUp?(reply: R, order: PassOrder): string | null;
  /** One judgment from all its passes, in `orders` order. */
  merge(passes: PassReply<R>[]): J;
  /**
   * The metric columns (no `metric/` prefix) from one judgment per sample. Only the names the
   * strategy defines: reply fields beyond its schema go under `extra` (see extraColumn).
   */
  columns(judgments: J[], samples: number): Record<string, unknown>;
  /**
   * Why these judgments (one per sample) give the row no verdict, e.g. samples with no strict
   * majority of a label; the row then fails as `no-majority`. Absent: every judgment set has one.
   */
  undecided?(judgments: J[], samples: number): string | undefined;
  /** Columns of a failed row: verdict columns null, plus whatever finished (e.g. one pass). */
  errorColumns(finished: PassReply<R>[]): Record<string, unknown>;
}

/** The expected reply restated in a repair request (shared by every strategy). */
export function repairInstruction(config: TemplateConfig): string {
  // Drop the "# Output format" heading: in a repair message it would read as a new section.
  return outputInstruction(config).replace(/^#[^\n]*\n+/, '');
}

/**
 * Reply fields beyond the schema's, as the one `extra` column (an object), or nothing. A reply can
 * never name a column itself: `{"human_rating": 2}` from a judge lands in `m/extra`, not on a label.
 */
export function extraColumn(reply: Record<string, unknown>, known: readonly string[]): { extra?: Record<string, unknown> } {
  const extra = Object.fromEntries(Object.entries(reply).filter(([k]) => !known.includes(k)));
  return Object.keys(extra).length > 0 ? { extra } : {};
}
