// How a panel of judges turns its members' verdicts into one row, without inventing a verdict:
// pairwise and pass/fail need a strict majority of the CONFIGURED panel (a judge that failed still
// counts in the denominator, so a failing judge never silently shrinks the panel); pointwise takes
// the median of the scores given. Below the quorum the row fails. Pure functions, no I/O.
import type { ErrorKind } from '../../results/errorKinds';
import { mean, round6 } from '../strategies/votes';
import type { Winner } from '../strategies/winners';

/** One member's judgment of one row: what `m/judges` records for it. */
export interface JudgeVote {
  /** The model name, with `@host` only when two members share a name. */
  judge: string;
  /** The score (pointwise), the label (categorical) or the choice (pairwise); null when the judge failed. */
  verdict: number | Winner | string | null;
  confidence: number | null;
  position_consistent: boolean | null;
  error_kind: ErrorKind | null;
  error?: string;
  justification?: string | null;
  /** With --samples N: the judge's own instability over its samples. */
  flip_rate?: number;
  score_sd?: number;
  /** With `scoring: expected`: the judge's probability-weighted score. */
  score_expected?: number | null;
}

export interface PanelShape {
  kind: 'pointwise' | 'pairwise';
  /** A two-point scale (pass/fail): a majority vote, never a median. */
  binary: boolean;
  /** Labels (a categorical verdict): a strict majority of one label, never a median. */
  categorical?: boolean;
  /** Judges that must answer (`min_judges`). */
  quorum: number;
}

export type PanelVerdict =
  | { ok: true; columns: Record<string, unknown> }
  | { ok: false; kind: ErrorKind; error: string; columns: Record<string, unknown> };

/** The default quorum: a strict majority of the panel. */
export function defaultQuorum(size: number): number {
  return Math.floor(size / 2) + 1;
}

/** The value more than half of `size` voters gave, else undefined (a failed voter is in `size`). */
export function strictMajority<T>(values: readonly T[], size: number): T | undefined {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  for (const [v, n] of counts) if (n * 2 > size) return v;
  return undefined;
}

/**
 * Median of integer scores, as an integer. Odd count: the middle score. Even count: the mean of
 * the two middle scores; when that falls halfway between two integers, the integer nearer the mean
 * of all the scores; when the mean is halfway too, the even integer (round half to even). No rule
 * here leans low or high: ties go by the data, then alternate by parity.
 */
export function medianScore(scores: readonly number[]): number {
  if (scores.length === 0) throw new Error('medianScore needs at least one score');
  const s = [...scores].sort((a, b) => a - b);
  const mid = s.length >> 1;
  if (s.length % 2 === 1) return s[mid]!;
  const m = (s[mid - 1]! + s[mid]!) / 2;
  if (Number.isInteger(m)) return m;
  const lo = Math.floor(m);
  const hi = lo + 1;
  const avg = mean(s);
  if (avg < m) return lo;
  if (avg > m) return hi;
  return lo % 2 === 0 ? lo : hi;
}

function tally(votes: readonly JudgeVote[]): string {
  const counts = new Map<string, number>();
  for (const v of votes) {
    const key = v.verdict === null ? 'failed' : String(v.verdict);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k}: ${n}`).join(', ');
}

function meanOf(votes: readonly JudgeVote[], key: 'flip_rate' | 'score_sd'): Record<string, number> {
  const xs = votes.flatMap((v) => (typeof v[key] === 'number' ? [v[key]] : []));
  return xs.length > 0 ? { [key]: round6(mean(xs)) } : {};
}

function statedConfidence(votes: readonly JudgeVote[]): number | null {
  const stated = votes.flatMap((v) => (typeof v.confidence === 'number' ? [v.confidence] : []));
  return stated.length > 0 ? round6(mean(stated)) : null;
}

/** What every panel verdict carries, and how it fails. */
interface Tally {
  shape: PanelShape;
  votes: readonly JudgeVote[];
  answered: JudgeVote[];
  base: { model: string; judges: JudgeVote[] };
  fail(kind: ErrorKind, error: string): PanelVerdict;
  /** Share of the configured panel that gave `verdict`. */
  agreement(verdict: unknown): number;
  stability: Record<string, number>;
}

/** The row's verdict columns from every configured member's vote (failed members included). */
export function aggregatePanel(shape: PanelShape, votes: readonly JudgeVote[]): PanelVerdict {
  const size = votes.length;
  const answered = votes.filter((v) => v.verdict !== null);
  const base = { model: votes.map((v) => v.judge).join(', '), judges: votes.map((v) => ({ ...v })) };
  const nullColumns =
    shape.kind === 'pairwise'
      ? { pairwise_choice: null, justification: null, confidence: null, position_consistent: null }
      : shape.categorical
        ? { label: null, justification: null, confidence: null }
        : { score: null, justification: null, confidence: null };
  const t: Tally = {
    shape,
    votes,
    answered,
    base,
    fail: (kind, error) => ({ ok: false, kind, error, columns: { ...nullColumns, ...base, panel_agreement: null, error, error_kind: kind } }),
    agreement: (verdict) => round6(votes.filter((v) => v.verdict === verdict).length / size),
    stability: { ...meanOf(answered, 'flip_rate'), ...meanOf(answered, 'score_sd') },
  };
  if (answered.length < shape.quorum) {
    const failed = votes.filter((v) => v.verdict === null);
    const why = failed.map((v) => `${v.judge}: ${v.error ?? v.error_kind ?? 'no verdict'}`).join('; ');
    // Nobody answered and for one reason (a render error, a bad key): that reason is the row's kind.
    const kinds = new Set(failed.map((v) => v.error_kind));
    const only = answered.length === 0 && kinds.size === 1 ? [...kinds][0] : undefined;
    return t.fail(only ?? 'quorum', `${answered.length} of ${size} judge(s) answered, fewer than the quorum of ${shape.quorum} (${why})`);
  }
  return shape.kind === 'pairwise' ? pairwiseVerdict(t) : shape.categorical ? categoricalVerdict(t) : pointwiseVerdict(t);
}

/** A strict majority of the configured panel wins; without one the verdict is TIE (never a smaller panel's pick). */
function pairwiseVerdict(t: Tally): PanelVerdict {
  const size = t.votes.length;
  const winner = strictMajority(t.answered.map((v) => v.verdict as Winner), size);
  const consistency = t.answered.map((v) => v.position_consistent);
  const position_consistent = consistency.includes(null) ? null : consistency.every(Boolean);
  if (winner === undefined) {
    return {
      ok: true,
      columns: {
        pairwise_choice: 'TIE',
        justification: `No strict majority of the ${size}-judge panel (${tally(t.votes)}), so the verdict is TIE.`,
        confidence: 0.5,
        position_consistent,
        ...t.base,
        panel_agreement: t.agreement('TIE'),
        panel_majority: false,
        ...t.stability,
      },
    };
  }
  const agreeing = t.answered.filter((v) => v.verdict === winner);
  return {
    ok: true,
    columns: {
      pairwise_choice: winner,
      justification: agreeing[0]?.justification ?? null,
      // The agreeing judges' stated confidence; null when none stated any (a text verdict states none).
      confidence: statedConfidence(agreeing),
      position_consistent,
      ...t.base,
      panel_agreement: t.agreement(winner),
      panel_majority: true,
      ...t.stability,
    },
  };
}

/** A categorical panel: a strict majority of one label, or the row fails (no-majority). */
function categoricalVerdict(t: Tally): PanelVerdict {
  const size = t.votes.length;
  const label = strictMajority(t.answered.map((v) => String(v.verdict)), size);
  if (label === undefined) return t.fail('no-majority', `no strict majority of the ${size}-judge panel (${tally(t.votes)})`);
  const chosen = t.answered.find((v) => v.verdict === label);
  return {
    ok: true,
    columns: { label, justification: chosen?.justification ?? null, confidence: t.agreement(label), ...t.base, panel_agreement: t.agreement(label), panel_majority: true, ...t.stability },
  };
}

/** Pass/fail: a strict majority or the row fails (no-majority); a scale: the median score. */
function pointwiseVerdict(t: Tally): PanelVerdict {
  const size = t.votes.length;
  const scores = t.answered.map((v) => v.verdict as number);
  let score: number;
  if (t.shape.binary) {
    const majority = strictMajority(scores, size);
    if (majority === undefined) return t.fail('no-majority', `no strict majority of the ${size}-judge panel (${tally(t.votes)})`);
    score = majority;
  } else {
    score = medianScore(scores);
  }
  const expected = t.answered.map((v) => v.score_expected);
  const chosen = t.answered.find((v) => v.verdict === score);
  return {
    ok: true,
    columns: {
      score,
      justification: chosen?.justification ?? t.answered[0]?.justification ?? null,
      // A pointwise judge states no confidence: the share of the panel that gave the score.
      confidence: t.agreement(score),
      score_mean: round6(mean(scores)),
      ...(expected.some((e) => e !== undefined)
        ? { score_expected: expected.every((e): e is number => typeof e === 'number') ? round6(mean(expected)) : null }
        : {}),
      ...t.base,
      panel_agreement: t.agreement(score),
      ...t.stability,
    },
  };
}
